import { errors } from '../../errors/index.js';
import type { ChangeFeedState } from '../common/changes.js';
import type { Clock } from '../common/clock.js';
import type { DigestVerdict, KnownDigests } from './known-digests.js';
import { digestToken, digestsEqual } from './tokens.js';
import type { KeyRecord, KeyRepository } from './types.js';

export interface AuthenticatorOptions {
  keys: Pick<KeyRepository, 'findByDigest'>;
  clock: Clock;
  /** The change feed as the cache sees it (the feed's `subscribe` is wired by the caller). */
  changes: { state(): ChangeFeedState; refresh(): void };
  /** While the feed is down, a cached record older than this is re-read before it is trusted. */
  revalidateAfterMs: number;
  /** Store unreachable: a record verified within this long keeps its decision; beyond, 503. */
  graceMs: number;
  /** A store read slower than this counts as the store being unreachable (default 2000 ms). */
  lookupTimeoutMs?: number;
  /** Even with a live feed, a record is re-read after this long (default 5 min): a safety net. */
  maxAgeMs?: number;
  /** After a failed read, records in grace are served without trying the store for this long. */
  failureBackoffMs?: number;
  maxEntries?: number;
  /** Monotonic milliseconds for cache ages (default performance.now). */
  monotonicNow?: () => number;
  observer?: { staleDecision?(): void; unavailable?(): void; storeRead?(): void; refusedFromMemory?(): void };
  /** Every stored digest in memory: a token none has is refused without a store read. */
  digests?: KnownDigests;
}

export interface AuthenticateOptions {
  /**
   * The caller's address is over its failed-authentication limit: the store is read only for a
   * digest memory knows (or a cached key), never to decide an unknown token (401 instead).
   */
  guarded?: boolean;
}

interface Entry {
  record: KeyRecord;
  verifiedAt: number;
}

class StoreUnreachable extends Error {}

/**
 * Token → key record, with an in-process cache kept coherent by the change feed: every key write
 * (here or on another replica) reaches `forget(hash)`, and "anything may have changed" (the feed
 * dropped or reconnected, the CLI wrote to SQLite) reaches `invalidateAll()`, which marks every
 * record for re-reading without dropping it. Expiry is checked against the clock on every call.
 *
 * When the store cannot be read, a record verified within `graceMs` keeps its last decision (the
 * `staleDecision` observer counts it); otherwise the answer is 503, never 401: a valid key must
 * not be refused because the database is away. See docs/deploy.md ("Database faults").
 *
 * With `digests`, a token whose digest no stored key has is refused from memory while the change
 * feed is live: a flood of bogus tokens costs no store read, and a key that is stored is always
 * verified, whoever else failed from the same address (docs/api.md, "Authentication").
 */
export class KeyAuthenticator {
  private readonly byDigest = new Map<string, Entry>();
  private readonly digestByHash = new Map<string, string>();
  private readonly inflight = new Map<string, Promise<KeyRecord | null>>();
  private readonly now: () => number;
  /** Bumped by every invalidation; a read that overlapped one is used once but not cached. */
  private epoch = 0;
  /** Records verified before this moment are re-read before they are trusted again. */
  private staleBefore = Number.NEGATIVE_INFINITY;
  private lastFailureAt = Number.NEGATIVE_INFINITY;

  constructor(private readonly options: AuthenticatorOptions) {
    this.now = options.monotonicNow ?? (() => performance.now());
  }

  authenticate(token: string, options: AuthenticateOptions = {}): Promise<KeyRecord> {
    return this.authenticateDigest(digestToken(token), options);
  }

  /**
   * `authenticate`'s decision, given at once when the token's key is cached and trusted (the key
   * record, or the refusal as an Error, not thrown); otherwise `authenticate`'s promise. Every
   * request with a known key takes the first path: no promise, no microtask hops before its
   * handler runs.
   */
  authenticateNow(token: string, options: AuthenticateOptions = {}): KeyRecord | Error | Promise<KeyRecord> {
    const digest = digestToken(token);
    const found = this.resolve(digest, options.guarded ?? false);
    if (found instanceof Promise) return found.then((record) => this.admitted(record, digest));
    return this.decide(found, digest);
  }

  /**
   * The same decision for a token known only by its digest (a console session holds its key's
   * digest, never the key): a rotated key no longer has this digest, so the answer is 401.
   */
  async authenticateDigest(digest: string, options: AuthenticateOptions = {}): Promise<KeyRecord> {
    return this.admitted(await this.resolve(digest, options.guarded ?? false), digest);
  }

  /** `decide`, with the refusal thrown. */
  private admitted(record: KeyRecord | null, digest: string): KeyRecord {
    const outcome = this.decide(record, digest);
    if (outcome instanceof Error) throw outcome;
    return outcome;
  }

  /** The key record the digest admits, or why it admits none. */
  private decide(record: KeyRecord | null, digest: string): KeyRecord | Error {
    if (record === null || !digestsEqual(record.tokenDigest, digest)) return errors.invalidAuth('Invalid API key');
    if (record.disabled) return errors.invalidAuth('This key is disabled');
    if (record.expiresAt !== null && Date.parse(record.expiresAt) <= this.options.clock.now().getTime()) {
      return errors.invalidAuth('This key has expired');
    }
    return record;
  }

  /** A digest just stored by this process (a key created or rotated here). */
  learn(digest: string): void {
    this.options.digests?.add(digest);
  }

  /** Drops whatever is cached for the key, under its old and new digest alike. */
  forget(hash: string): void {
    this.bump();
    const digest = this.digestByHash.get(hash);
    if (digest !== undefined) this.byDigest.delete(digest);
    this.digestByHash.delete(hash);
  }

  /** Anything may have changed: every cached record is re-read before it is trusted again. */
  invalidateAll(): void {
    this.bump();
    this.staleBefore = this.now();
  }

  /** How many records are cached (for tests and metrics). */
  size(): number {
    return this.byDigest.size;
  }

  private bump(): void {
    this.epoch += 1;
    // Reads already under way may return what the invalidation replaced: new requests start anew.
    this.inflight.clear();
  }

  private trusted(entry: Entry, now: number): boolean {
    if (entry.verifiedAt <= this.staleBefore) return false;
    const age = now - entry.verifiedAt;
    if (age >= (this.options.maxAgeMs ?? 300_000)) return false;
    return this.options.changes.state() === 'live' || age < this.options.revalidateAfterMs;
  }

  /** The cached record at once when it is trusted; otherwise `resolveUncached`. */
  private resolve(digest: string, guarded: boolean): KeyRecord | Promise<KeyRecord | null> {
    this.options.changes.refresh();
    const now = this.now();
    const hit = this.byDigest.get(digest);
    if (hit !== undefined && this.trusted(hit, now)) return hit.record;
    return this.resolveUncached(digest, { guarded, hit, now });
  }

  /** A key not trusted from the cache: refused from memory, kept in the grace, or read from the store. */
  private async resolveUncached(
    digest: string,
    { guarded, hit, now }: { guarded: boolean; hit: Entry | undefined; now: number },
  ): Promise<KeyRecord | null> {
    if (hit === undefined) {
      const digests = this.options.digests;
      let verdict: DigestVerdict = digests?.verdict(digest) ?? 'unsure';
      // No await on the usual paths: a known digest, or no memory of digests at all.
      if (verdict !== 'present' && digests !== undefined) verdict = await digests.decide(digest, verdict);
      if (verdict === 'absent') this.options.observer?.refusedFromMemory?.();
      if (verdict === 'absent' || (verdict === 'unsure' && guarded)) return null;
    }
    const inGrace = hit !== undefined && now - hit.verifiedAt <= this.options.graceMs;
    if (hit !== undefined && inGrace && now - this.lastFailureAt < (this.options.failureBackoffMs ?? 250)) {
      this.options.observer?.staleDecision?.();
      return hit.record;
    }
    try {
      return await this.load(digest);
    } catch (error) {
      if (!(error instanceof StoreUnreachable)) throw error;
      this.lastFailureAt = this.now();
      // The entry may have been forgotten while the read failed: then there is no decision to keep.
      if (hit !== undefined && inGrace && this.byDigest.get(digest) === hit) {
        this.options.observer?.staleDecision?.();
        return hit.record;
      }
      this.options.observer?.unavailable?.();
      throw errors.storeUnavailable('The key store is temporarily unreachable; retry shortly');
    }
  }

  /** One read per digest at a time; caches the result unless an invalidation overlapped it. */
  private load(digest: string): Promise<KeyRecord | null> {
    const running = this.inflight.get(digest);
    if (running !== undefined) return running;
    const epoch = this.epoch;
    const addsBefore = this.options.digests?.addMark() ?? 0;
    const read = this.readStore(digest)
      .then((record) => {
        if (epoch === this.epoch) this.remember(digest, record);
        // Memory follows what the store just said: a digest no key has is refused from memory next time.
        if (record === null || !digestsEqual(record.tokenDigest, digest))
          this.options.digests?.stale(digest, addsBefore);
        else this.options.digests?.add(digest);
        return record;
      })
      .finally(() => {
        if (this.inflight.get(digest) === read) this.inflight.delete(digest);
      });
    this.inflight.set(digest, read);
    return read;
  }

  private async readStore(digest: string): Promise<KeyRecord | null> {
    this.options.observer?.storeRead?.();
    const timeoutMs = this.options.lookupTimeoutMs ?? 2000;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new StoreUnreachable(`key lookup took over ${timeoutMs} ms`)), timeoutMs);
    });
    try {
      return await Promise.race([this.options.keys.findByDigest(digest), timeout]);
    } catch (error) {
      throw error instanceof StoreUnreachable ? error : new StoreUnreachable('key lookup failed', { cause: error });
    } finally {
      clearTimeout(timer);
    }
  }

  private remember(digest: string, record: KeyRecord | null): void {
    const previous = this.byDigest.get(digest);
    if (record === null) {
      if (previous !== undefined) this.drop(previous.record.hash);
      return;
    }
    this.drop(record.hash);
    const max = this.options.maxEntries ?? 100_000;
    while (this.byDigest.size >= max) {
      const oldest = this.byDigest.entries().next().value;
      if (oldest === undefined) break;
      this.byDigest.delete(oldest[0]);
      this.digestByHash.delete(oldest[1].record.hash);
    }
    this.byDigest.set(digest, { record, verifiedAt: this.now() });
    this.digestByHash.set(record.hash, digest);
  }

  /** Removes a key's entry without counting as an invalidation (the store was just read). */
  private drop(hash: string): void {
    const digest = this.digestByHash.get(hash);
    if (digest !== undefined) this.byDigest.delete(digest);
    this.digestByHash.delete(hash);
  }
}
