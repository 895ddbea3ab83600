import { docTestGuide } from '../guide-runner.js';

docTestGuide('06-sdks.md');
