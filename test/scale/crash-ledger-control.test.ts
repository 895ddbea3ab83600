import { crashControl } from './crash-ledger-suite.js';

crashControl('sqlite');
