import { docTestGuide } from '../guide-runner.js';

docTestGuide('03-budgets.md');
