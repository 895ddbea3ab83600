import type { Clock } from './clock.js';

export interface FailureThrottleOptions {
  clock: Clock;
  /** Failures allowed per client within `windowMs`; the next attempt is refused. */
  maxFailures: number;
  windowMs: number;
  /** Clients remembered at most (the oldest is forgotten first). Default 10 000. */
  maxClients?: number;
}

/**
 * Failed attempts per client (e.g. a client address) in a sliding window: after `maxFailures`
 * failures within `windowMs`, `retryAfterMs` says how long until the oldest of them leaves the
 * window. A success does not reset the count (a guesser with one valid key gains nothing).
 * In memory, per process: each replica throttles what it sees.
 */
export class FailureThrottle {
  private readonly failures = new Map<string, number[]>();

  constructor(private readonly options: FailureThrottleOptions) {}

  /** 0 when the client may try now; else milliseconds until it may. */
  retryAfterMs(client: string): number {
    const now = this.options.clock.now().getTime();
    const recent = this.recent(client, now);
    if (recent.length < this.options.maxFailures) return 0;
    const oldest = recent[recent.length - this.options.maxFailures] ?? now;
    return Math.max(1, oldest + this.options.windowMs - now);
  }

  recordFailure(client: string): void {
    const now = this.options.clock.now().getTime();
    const recent = this.recent(client, now);
    recent.push(now);
    // Only the newest maxFailures matter for the decision.
    if (recent.length > this.options.maxFailures) recent.splice(0, recent.length - this.options.maxFailures);
    this.failures.delete(client);
    this.failures.set(client, recent);
    const max = this.options.maxClients ?? 10_000;
    while (this.failures.size > max) {
      const oldest = this.failures.keys().next().value;
      if (oldest === undefined) break;
      this.failures.delete(oldest);
    }
  }

  private recent(client: string, now: number): number[] {
    const list = this.failures.get(client);
    if (list === undefined) return [];
    const fresh = list.filter((t) => t > now - this.options.windowMs);
    if (fresh.length === 0) this.failures.delete(client);
    else this.failures.set(client, fresh);
    return fresh;
  }
}
