import { docTestGuide } from '../guide-runner.js';

docTestGuide('11-bedrock.md');
