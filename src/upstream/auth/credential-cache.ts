/**
 * Holds one expiring credential (an access token, a set of AWS keys) and renews it in the
 * background: a refresh starts ahead of expiry, a call never waits for it while the held
 * credential is valid, and a failed refresh keeps the held one (retrying) until it expires.
 * Only when no valid credential exists does a call wait for the fetch.
 */
export interface Expiring<T> {
  value: T;
  /** Epoch ms; null for a credential that does not expire (static keys). */
  expiresAtMs: number | null;
  /** Epoch ms at which the issuer suggests renewing (Entra's refresh_in); optional. */
  refreshAtMs?: number | null;
}

export interface CredentialCacheOptions<T> {
  fetch: () => Promise<Expiring<T>>;
  /** Turns a fetch failure into the error a call sees (naming the problem, never a secret). */
  failure: (error: unknown) => Error;
  /** Renew this long before expiry (capped at half the credential's lifetime). Default 5 minutes. */
  refreshBeforeMs?: number;
  /** After a failed background refresh, try again this much later. Default 10 seconds. */
  retryMs?: number;
}

const DEFAULT_REFRESH_BEFORE_MS = 5 * 60_000;
const DEFAULT_RETRY_MS = 10_000;
/** A credential this close to its expiry is no longer handed out (capped at a tenth of its lifetime). */
const EXPIRY_MARGIN_MS = 30_000;
const MIN_RENEWAL_DELAY_MS = 1_000;

interface Held<T> {
  value: T;
  usableUntil: number;
  refreshAt: number;
}

export class CredentialCache<T> {
  private held: Held<T> | null = null;
  private inflight: Promise<Held<T>> | null = null;
  private timer: NodeJS.Timeout | null = null;
  private closed = false;
  private readonly refreshBeforeMs: number;
  private readonly retryMs: number;

  constructor(private readonly options: CredentialCacheOptions<T>) {
    this.refreshBeforeMs = options.refreshBeforeMs ?? DEFAULT_REFRESH_BEFORE_MS;
    this.retryMs = options.retryMs ?? DEFAULT_RETRY_MS;
  }

  /** The valid credential, synchronously, or null when there is none. */
  current(): T | null {
    const held = this.held;
    if (held === null || Date.now() >= held.usableUntil) return null;
    if (Date.now() >= held.refreshAt && this.inflight === null && !this.closed) this.refreshInBackground();
    return held.value;
  }

  /** The valid credential, synchronously when one is held; otherwise waits for a fetch. */
  get(): T | Promise<T> {
    const value = this.current();
    if (value !== null) return value;
    return this.refresh().then((held) => held.value);
  }

  /** Fetches the first credential in the background; idempotent. */
  start(): void {
    if (this.held === null && this.inflight === null && !this.closed) this.refreshInBackground();
  }

  close(): void {
    this.closed = true;
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
  }

  private refreshInBackground(): void {
    this.refresh().catch(() => undefined); // the held credential stays; the failure is retried
  }

  private refresh(): Promise<Held<T>> {
    if (this.inflight !== null) return this.inflight;
    const fetching = this.options.fetch().then(
      (credential) => {
        const held = this.hold(credential);
        this.held = held;
        this.schedule(held.refreshAt);
        return held;
      },
      (error: unknown) => {
        this.schedule(Date.now() + this.retryMs);
        throw this.options.failure(error);
      },
    );
    this.inflight = fetching;
    const clear = (): void => {
      if (this.inflight === fetching) this.inflight = null;
    };
    fetching.then(clear, clear);
    return fetching;
  }

  private hold(credential: Expiring<T>): Held<T> {
    const now = Date.now();
    if (credential.expiresAtMs === null) return { value: credential.value, usableUntil: Infinity, refreshAt: Infinity };
    const lifetime = Math.max(0, credential.expiresAtMs - now);
    const usableUntil = credential.expiresAtMs - Math.min(EXPIRY_MARGIN_MS, lifetime / 10);
    let refreshAt = credential.expiresAtMs - Math.min(this.refreshBeforeMs, lifetime / 2);
    if (credential.refreshAtMs !== undefined && credential.refreshAtMs !== null)
      refreshAt = Math.min(refreshAt, credential.refreshAtMs);
    // Never sooner than a second: a source that hands back a credential already due for renewal
    // must not be asked again in a tight loop.
    refreshAt = Math.max(refreshAt, now + MIN_RENEWAL_DELAY_MS);
    return { value: credential.value, usableUntil, refreshAt };
  }

  private schedule(at: number): void {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    if (this.closed || at === Infinity) return;
    this.timer = setTimeout(
      () => {
        this.timer = null;
        this.refreshInBackground();
      },
      Math.max(0, at - Date.now()),
    );
    this.timer.unref();
  }
}
