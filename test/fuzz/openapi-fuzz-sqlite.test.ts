// The OpenAPI fuzzer (test/fuzz/fuzz-suite.ts) on SQLite.
import { fuzzSuite } from './fuzz-suite.js';

fuzzSuite('sqlite');
