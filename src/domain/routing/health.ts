/**
 * Per-endpoint circuit breaker and latency/throughput EWMA, in memory (per process).
 *
 * Breaker: `failureThreshold` failures within `failureWindowMs`, with no success in between,
 * open the endpoint for `cooldownMs`. While open, routing pushes it behind healthy endpoints (it
 * is not removed: if every endpoint is open, the request still tries them). After the cooldown it
 * is half-open: it is routed normally again, and the next result decides — a success closes it,
 * a failure reopens it for another cooldown. The clock is injectable for tests.
 */
import type { HealthView } from './types.js';

export type BreakerState = 'closed' | 'open' | 'half_open';

export interface HealthOptions {
  /** Failures in the window that open the breaker. Default 3. */
  readonly failureThreshold?: number;
  /** Window in which those failures must fall. Default 30 000 ms. */
  readonly failureWindowMs?: number;
  /** How long an open breaker stays open. Default 30 000 ms. */
  readonly cooldownMs?: number;
  /** Weight of a new sample in the EWMA (0..1]. Default 0.3. */
  readonly ewmaAlpha?: number;
  /** Milliseconds clock. Default Date.now. */
  readonly now?: () => number;
}

export interface EndpointHealthSnapshot {
  readonly key: string;
  readonly state: BreakerState;
  readonly recentFailures: number;
  readonly latencyMs: number | null;
  readonly throughput: number | null;
}

interface Entry {
  failures: number[];
  openedAt: number | null;
  latencyMs: number | undefined;
  throughput: number | undefined;
}

export class EndpointHealth implements HealthView {
  private readonly entries = new Map<string, Entry>();
  private readonly threshold: number;
  private readonly windowMs: number;
  private readonly cooldownMs: number;
  private readonly alpha: number;
  private readonly now: () => number;

  constructor(options: HealthOptions = {}) {
    this.threshold = Math.max(1, Math.floor(options.failureThreshold ?? 3));
    this.windowMs = options.failureWindowMs ?? 30_000;
    this.cooldownMs = options.cooldownMs ?? 30_000;
    const alpha = options.ewmaAlpha ?? 0.3;
    if (!(alpha > 0 && alpha <= 1)) throw new RangeError('ewmaAlpha must be in (0, 1]');
    this.alpha = alpha;
    this.now = options.now ?? Date.now;
  }

  /**
   * Follows a catalog reload: state of endpoints that no longer exist is dropped, and so is the
   * state of endpoints whose provider now connects differently (their failures and latency were
   * measured against another upstream). Calls still in flight on a removed endpoint record
   * nothing afterwards, so its state does not come back.
   */
  reconcile(options: { keep: ReadonlySet<string>; reset: readonly string[] }): void {
    this.known = options.keep;
    for (const key of [...this.entries.keys()]) if (!options.keep.has(key)) this.entries.delete(key);
    for (const key of options.reset) this.entries.delete(key);
  }

  /** The endpoint keys of the running catalog after a reload; null until the first reload. */
  private known: ReadonlySet<string> | null = null;

  private entry(key: string): Entry {
    let entry = this.entries.get(key);
    if (!entry) {
      entry = { failures: [], openedAt: null, latencyMs: undefined, throughput: undefined };
      this.entries.set(key, entry);
    }
    return entry;
  }

  state(endpointKey: string): BreakerState {
    const entry = this.entries.get(endpointKey);
    if (!entry || entry.openedAt === null) return 'closed';
    return this.now() - entry.openedAt < this.cooldownMs ? 'open' : 'half_open';
  }

  isHealthy(endpointKey: string): boolean {
    return this.state(endpointKey) !== 'open';
  }

  recordSuccess(endpointKey: string): void {
    if (this.known?.has(endpointKey) === false) return;
    const entry = this.entry(endpointKey);
    entry.failures = [];
    entry.openedAt = null;
  }

  recordFailure(endpointKey: string): void {
    if (this.known?.has(endpointKey) === false) return;
    const entry = this.entry(endpointKey);
    const now = this.now();
    const state = this.state(endpointKey);
    if (state === 'open') return;
    if (state === 'half_open') {
      entry.openedAt = now;
      entry.failures = [now];
      return;
    }
    entry.failures = entry.failures.filter((t) => now - t < this.windowMs);
    entry.failures.push(now);
    if (entry.failures.length >= this.threshold) entry.openedAt = now;
  }

  /** Time to first byte (or total latency) in ms, and optionally the generation speed. */
  recordLatency(endpointKey: string, ms: number, tokensPerSec?: number): void {
    if (this.known?.has(endpointKey) === false) return;
    const entry = this.entry(endpointKey);
    if (Number.isFinite(ms) && ms >= 0) {
      entry.latencyMs = entry.latencyMs === undefined ? ms : this.alpha * ms + (1 - this.alpha) * entry.latencyMs;
    }
    if (tokensPerSec !== undefined && Number.isFinite(tokensPerSec) && tokensPerSec >= 0) {
      entry.throughput =
        entry.throughput === undefined ? tokensPerSec : this.alpha * tokensPerSec + (1 - this.alpha) * entry.throughput;
    }
  }

  latencyMs(endpointKey: string): number | undefined {
    return this.entries.get(endpointKey)?.latencyMs;
  }

  throughput(endpointKey: string): number | undefined {
    return this.entries.get(endpointKey)?.throughput;
  }

  /** For /health and metrics. */
  snapshot(): EndpointHealthSnapshot[] {
    const now = this.now();
    return [...this.entries.entries()].map(([key, entry]) => ({
      key,
      state: this.state(key),
      recentFailures: entry.failures.filter((t) => now - t < this.windowMs).length,
      latencyMs: entry.latencyMs ?? null,
      throughput: entry.throughput ?? null,
    }));
  }
}

/** A HealthView with no data: everything healthy, no latency or throughput samples. */
export const NO_HEALTH_DATA: HealthView = Object.freeze({
  isHealthy: () => true,
  latencyMs: () => undefined,
  throughput: () => undefined,
});
