import { docTestGuide } from '../guide-runner.js';

docTestGuide('08-postgres-replicas.md');
