import { docTestGuide } from '../guide-runner.js';

docTestGuide('04-presets.md');
