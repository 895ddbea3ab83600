import { crashSuite } from './crash-ledger-suite.js';

crashSuite('postgres');
