import { docTestGuide } from '../guide-runner.js';

docTestGuide('10-azure.md');
