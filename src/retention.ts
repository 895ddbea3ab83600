import { hostname } from 'node:os';
import type { RetentionConfig } from './config/retention-env.js';
import type { Clock } from './domain/common/clock.js';
import { randomHex } from './domain/common/ids.js';
import { RetentionPruner } from './domain/retention/pruner.js';
import type { Store } from './store/index.js';

/**
 * The server's retention pruner (docs/deploy.md, "Retention"): started when a retention is set,
 * stopped before the store closes. Its lease name is unique per process, so replicas (and two
 * servers in one process) take turns.
 */
export function startRetention(options: {
  config: RetentionConfig;
  store: Pick<Store, 'retention'>;
  clock: Clock;
  log: (msg: string, err?: unknown) => void;
}): RetentionPruner {
  const { config } = options;
  const pruner = new RetentionPruner({
    repository: options.store.retention,
    clock: options.clock,
    policy: {
      generationsDays: config.generationsDays,
      rollupsDays: config.rollupsDays,
      batchSize: config.batchSize,
    },
    holder: `${hostname()}-${process.pid}-${randomHex(6)}`,
    log: options.log,
  });
  pruner.start(config.intervalMs);
  return pruner;
}
