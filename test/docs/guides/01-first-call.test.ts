import { docTestGuide } from '../guide-runner.js';

docTestGuide('01-first-call.md');
