// The OpenAPI fuzzer (test/fuzz/fuzz-suite.ts) on PostgreSQL (skipped without the harness's server).
import { pgSkipReason } from '../harness/env.js';
import { fuzzSuite } from './fuzz-suite.js';

fuzzSuite('postgres', pgSkipReason());
