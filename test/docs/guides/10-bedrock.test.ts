import { docTestGuide } from '../guide-runner.js';

docTestGuide('10-bedrock.md');
