import type { ChangeFeedState } from '../common/changes.js';
import { DigestSet } from './digest-set.js';

export interface KnownDigestsOptions {
  keys: {
    /** Up to `limit` stored token digests greater than `after` (null: from the first), ascending. */
    listDigests(after: string | null, limit: number): Promise<string[]>;
    findByHash(hash: string): Promise<{ tokenDigest: string } | null>;
  };
  changes: { state(): ChangeFeedState; refresh(): void };
  /** After a failed load, the next try waits this long (default 1000 ms). */
  retryMs?: number;
  /** Digests read per store query while loading (default 10,000). */
  pageSize?: number;
  /** A miss waits at most this long for a reload or a key's read under way (default 2000 ms). */
  settleMs?: number;
  /**
   * A miss is decided again after this long (default 0: at once): with replicas, a key created on
   * another one a moment ago may still be on its way through the change feed.
   */
  recheckMs?: number;
  log?: (msg: string, err?: unknown) => void;
}

/**
 * What memory says about a digest. `absent`: no stored key has it (answer without a store read).
 * `present`: a stored key may have it (verify against the store as usual). `unsure`: memory may
 * be missing keys (not loaded yet, or the change feed is down), so only the store can tell.
 */
export type DigestVerdict = 'absent' | 'present' | 'unsure';

/**
 * Every stored token digest, in memory, so that a token no key has is refused without a store
 * read. Loaded at start; kept coherent by the change feed: a key's notification (created,
 * rotated, on any replica) adds its current digest; "anything may have changed" (the feed
 * reconnected, the SQLite CLI wrote) reloads the whole set in the background. A digest that
 * stops being stored (rotation, deletion) stays until the store is read for it once and has no
 * such key (`stale`), or until the next reload: extra digests cost a read, never a refusal.
 *
 * Memory is authoritative only while it is loaded, no reload is pending and the feed is live;
 * otherwise the verdict is `unsure` and callers fall back to the store (guarded by the throttle).
 */
export class KnownDigests {
  private set = new DigestSet();
  private loaded = false;
  /** The set being rebuilt by a reload; per-key changes go to it too. */
  private next: DigestSet | null = null;
  private generation = 0;
  private reloading: Promise<void> | null = null;
  /** Per-key reads under way: a miss waits for them, so a key just announced is not refused. */
  private readonly pending = new Set<Promise<void>>();
  /** Bumped by every add: a stale-removal decided before an add of the same digest is dropped. */
  private adds = 0;
  private retryTimer: NodeJS.Timeout | null = null;
  private closed = false;

  constructor(private readonly options: KnownDigestsOptions) {}

  /** Loads every stored digest (resolves when loaded, or after the first failure, logged). */
  start(): Promise<void> {
    return this.reload();
  }

  close(): void {
    this.closed = true;
    if (this.retryTimer !== null) clearTimeout(this.retryTimer);
  }

  /** The change feed's `keys` handler: a key's id, or null for "anything may have changed". */
  changed(hash: string | null): void {
    if (this.closed) return;
    if (hash === null) {
      void this.reload();
      return;
    }
    const read = this.options.keys.findByHash(hash).then(
      (record) => {
        if (record !== null) this.add(record.tokenDigest);
      },
      (error: unknown) => {
        this.options.log?.('key digests: a changed key could not be read; reloading all', error);
        void this.reload();
      },
    );
    const tracked = read.finally(() => this.pending.delete(tracked));
    this.pending.add(tracked);
  }

  /** A digest this process just stored (a key created or rotated here): known at once. */
  add(digest: string): void {
    this.adds += 1;
    this.set.add(digest);
    this.next?.add(digest);
  }

  /** Whether memory can answer for `digest`; `authoritative()` false means `unsure`. */
  verdict(digest: string): DigestVerdict {
    this.options.changes.refresh();
    if (this.set.has(digest)) return 'present';
    return this.authoritative() ? 'absent' : 'unsure';
  }

  /**
   * The verdict for a digest memory does not hold (`first`, from `verdict`), once reloads and
   * key notifications under way have landed, and after `recheckMs` for a miss.
   */
  async decide(digest: string, first: DigestVerdict): Promise<DigestVerdict> {
    let verdict = first;
    const settling = this.settle(this.options.settleMs ?? 2000);
    if (settling !== null) {
      await settling;
      verdict = this.verdict(digest);
    }
    const recheckMs = this.options.recheckMs ?? 0;
    if (verdict !== 'absent' || recheckMs === 0) return verdict;
    await new Promise((resolve) => setTimeout(resolve, recheckMs));
    await this.settle(this.options.settleMs ?? 2000);
    return this.verdict(digest);
  }

  /**
   * Resolves when per-key reads under way and a reload started while the feed is live have
   * finished (at most `maxWaitMs`); null when there is nothing to wait for.
   */
  settle(maxWaitMs: number): Promise<void> | null {
    const waits: Promise<void>[] = [...this.pending];
    if (this.reloading !== null && this.options.changes.state() === 'live') waits.push(this.reloading);
    if (waits.length === 0) return null;
    let timer: NodeJS.Timeout | undefined;
    const cap = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, maxWaitMs);
    });
    return Promise.race([Promise.all(waits).then(() => undefined), cap]).finally(() => clearTimeout(timer));
  }

  /**
   * The store was read for `digest` and no key has it: forget it, unless it was added since
   * `addsBefore` (`addMark()` taken before the read), when the read may predate the key.
   */
  stale(digest: string, addsBefore: number): void {
    if (this.adds !== addsBefore) return;
    this.set.delete(digest);
    this.next?.delete(digest);
  }

  addMark(): number {
    return this.adds;
  }

  /** For metrics and tests: digests held, bytes of the table, whether misses are decided from memory. */
  stats(): { size: number; bytes: number; authoritative: boolean } {
    return { size: this.set.size, bytes: this.set.bytes(), authoritative: this.authoritative() };
  }

  private authoritative(): boolean {
    return this.loaded && this.next === null && this.options.changes.state() === 'live';
  }

  /** Rebuilds the set from the store; a newer reload supersedes an older one still running. */
  private reload(): Promise<void> {
    if (this.retryTimer !== null) clearTimeout(this.retryTimer);
    this.retryTimer = null;
    const generation = ++this.generation;
    const next = new DigestSet(this.set.size);
    this.next = next;
    const run = this.fill(next, generation).then(
      () => {
        if (generation !== this.generation) return;
        this.set = next;
        this.next = null;
        this.loaded = true;
      },
      (error: unknown) => {
        if (generation !== this.generation || this.closed) return;
        this.options.log?.('key digests: loading from the store failed; retrying', error);
        this.retryTimer = setTimeout(() => void this.reload(), this.options.retryMs ?? 1000);
        this.retryTimer.unref();
      },
    );
    const tracked = run.finally(() => {
      if (this.reloading === tracked) this.reloading = null;
    });
    this.reloading = tracked;
    return tracked;
  }

  private async fill(next: DigestSet, generation: number): Promise<void> {
    const pageSize = this.options.pageSize ?? 10_000;
    let after: string | null = null;
    for (;;) {
      if (generation !== this.generation || this.closed) return;
      const page = await this.options.keys.listDigests(after, pageSize);
      for (const digest of page) next.add(digest);
      if (page.length < pageSize) return;
      after = page[page.length - 1] ?? null;
    }
  }
}
