import { docTestGuide } from '../guide-runner.js';

docTestGuide('09-container.md');
