import { crashSuite } from './crash-ledger-suite.js';

crashSuite('sqlite');
