import { docTestGuide } from '../guide-runner.js';

docTestGuide('12-google-cloud.md');
