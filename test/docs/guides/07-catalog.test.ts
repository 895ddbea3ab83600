import { docTestGuide } from '../guide-runner.js';

docTestGuide('07-catalog.md');
