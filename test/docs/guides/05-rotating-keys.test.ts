import { docTestGuide } from '../guide-runner.js';

docTestGuide('05-rotating-keys.md');
