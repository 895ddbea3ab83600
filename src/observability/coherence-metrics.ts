import { Counter, Gauge, type Registry } from 'prom-client';
import type { ChangeFeedObserver } from '../domain/common/changes.js';

export interface CoherenceMetrics {
  /** Give to `changeFeed.observe()`. */
  feed: ChangeFeedObserver;
  /** Give to the key authenticator. */
  auth: { staleDecision(): void; unavailable(): void; storeRead(): void; refusedFromMemory(): void };
  /** Reports how many token digests are held in memory (give it `knownDigests.stats`). */
  trackDigests(stats: () => { size: number; bytes: number }): void;
}

/**
 * Metrics of cache coherence across replicas: whether this replica hears every change (the
 * change feed), and how authentication behaved while the key store was unreachable. Labels are
 * topic names only.
 */
export function registerCoherenceMetrics(registry: Registry): CoherenceMetrics {
  const registers = [registry];
  const up = new Gauge({
    name: 'switchyard_change_feed_up',
    help: '1 while this replica hears every change (LISTEN connected, or a single-process store); 0 while caches revalidate against the database instead',
    registers,
  });
  const reconnects = new Counter({
    name: 'switchyard_change_feed_reconnects_total',
    help: 'Times the change feed came back after being down',
    registers,
  });
  const received = new Counter({
    name: 'switchyard_change_feed_notifications_total',
    help: 'Change notifications received from the database, by topic',
    labelNames: ['topic'],
    registers,
  });
  const publishFailures = new Counter({
    name: 'switchyard_change_feed_publish_failures_total',
    help: 'Change notifications that could not be sent at once (kept queued and resent after reconnecting)',
    registers,
  });
  const stale = new Counter({
    name: 'switchyard_auth_stale_decisions_total',
    help: 'Requests authenticated from a cached decision because the key store was unreachable',
    registers,
  });
  const unavailable = new Counter({
    name: 'switchyard_auth_store_unavailable_total',
    help: 'Requests answered 503 because the key store was unreachable and no recent decision was cached',
    registers,
  });
  const storeReads = new Counter({
    name: 'switchyard_auth_key_store_reads_total',
    help: 'Key lookups by token that read the store (a key not cached, or memory could not decide)',
    registers,
  });
  const fromMemory = new Counter({
    name: 'switchyard_auth_refused_from_memory_total',
    help: 'Tokens refused without a store read because no stored key has their digest',
    registers,
  });
  let digests: () => { size: number; bytes: number } = () => ({ size: 0, bytes: 0 });
  new Gauge({
    name: 'switchyard_auth_known_digests',
    help: 'Token digests of stored keys held in memory to refuse unknown tokens without a store read',
    registers,
    collect() {
      this.set(digests().size);
    },
  });
  new Gauge({
    name: 'switchyard_auth_known_digests_bytes',
    help: 'Bytes of the in-memory table of token digests',
    registers,
    collect() {
      this.set(digests().bytes);
    },
  });
  up.set(0);
  return {
    trackDigests: (stats) => {
      digests = stats;
    },
    feed: {
      stateChanged: (state) => up.set(state === 'live' ? 1 : 0),
      reconnected: () => reconnects.inc(),
      received: (topic) => received.inc({ topic }),
      publishFailed: () => publishFailures.inc(),
    },
    auth: {
      staleDecision: () => stale.inc(),
      unavailable: () => unavailable.inc(),
      storeRead: () => storeReads.inc(),
      refusedFromMemory: () => fromMemory.inc(),
    },
  };
}
