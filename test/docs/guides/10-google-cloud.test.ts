import { docTestGuide } from '../guide-runner.js';

docTestGuide('10-google-cloud.md');
