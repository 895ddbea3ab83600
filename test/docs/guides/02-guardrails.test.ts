import { docTestGuide } from '../guide-runner.js';

docTestGuide('02-guardrails.md');
