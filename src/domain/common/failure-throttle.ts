/**
 * Counts failed attempts (authentications, sign-ins) per client address in a fixed window. Once an
 * address reaches `maxFailures` within `windowMs`, `retryAfterMs(address)` answers the time until its
 * window ends; callers refuse that address's unproven attempts with 429 until then.
 *
 * Memory is bounded: at most `maxAddresses` addresses are tracked; when full, the address whose
 * window started longest ago is forgotten first (the Map keeps insertion order and a new window
 * re-inserts its address). Nothing here knows about HTTP: a caller passes the address it trusts.
 */
export interface FailureThrottleOptions {
  /** Failures per address within one window before the address is throttled; 0 turns throttling off. */
  maxFailures: number;
  windowMs: number;
  maxAddresses: number;
  /** Milliseconds, monotonic (default performance.now). */
  now?: () => number;
}

interface Window {
  startedAt: number;
  failures: number;
}

export class FailureThrottle {
  private readonly windows = new Map<string, Window>();
  private readonly now: () => number;

  constructor(private readonly options: FailureThrottleOptions) {
    this.now = options.now ?? (() => performance.now());
  }

  get enabled(): boolean {
    return this.options.maxFailures > 0;
  }

  /** Milliseconds until `address` may try again; 0 when it is not throttled. */
  retryAfterMs(address: string): number {
    if (!this.enabled) return 0;
    const window = this.windows.get(address);
    if (window === undefined || window.failures < this.options.maxFailures) return 0;
    const left = window.startedAt + this.options.windowMs - this.now();
    if (left > 0) return left;
    this.windows.delete(address);
    return 0;
  }

  /** Whole seconds for a `Retry-After` header (at least 1) while throttled; 0 when not. */
  retryAfterSeconds(address: string): number {
    const ms = this.retryAfterMs(address);
    return ms === 0 ? 0 : Math.max(1, Math.ceil(ms / 1000));
  }

  recordFailure(address: string): void {
    if (!this.enabled) return;
    const now = this.now();
    const window = this.windows.get(address);
    if (window !== undefined && now - window.startedAt < this.options.windowMs) {
      window.failures += 1;
      return;
    }
    this.windows.delete(address);
    while (this.windows.size >= this.options.maxAddresses) {
      const oldest = this.windows.keys().next();
      if (oldest.done === true) break;
      this.windows.delete(oldest.value);
    }
    this.windows.set(address, { startedAt: now, failures: 1 });
  }

  /** How many addresses are tracked (for tests and metrics). */
  size(): number {
    return this.windows.size;
  }
}
