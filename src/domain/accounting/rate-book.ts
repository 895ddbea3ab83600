import type { GatewayError } from '../../errors/index.js';
import type { Clock } from '../common/clock.js';

/** Rate limits are counted in fixed one-minute windows (UTC minute boundaries). */
export const RATE_WINDOW_MS = 60_000;

/** A guardrail's per-minute limits, checked against one assignee's account. */
export interface RateLimit {
  /** A key hash, or `member:<user_id>` (the same accounts as budgets). */
  account: string;
  requestsPerMinute: number | null;
  tokensPerMinute: number | null;
  /** The 429 for a call over this limit, naming the guardrail. */
  exceeded(details: RateRefusal): GatewayError;
}

export interface RateRefusal {
  rule: 'requests_per_minute' | 'tokens_per_minute';
  limit: number;
  remaining: number;
  /** Epoch ms at which the window ends and the count starts again. */
  resetAtMs: number;
  retryAfterSeconds: number;
}

/** One replica's count of one account's minute, as stored for the others to read. */
export interface RateCount {
  account: string;
  window: string;
  requests: number;
  tokens: number;
}

export interface RateCountStore {
  /**
   * Writes this holder's counts (absolute values) and returns the totals of every holder for
   * those slots; rows that expired before `purgeBefore` are deleted.
   */
  syncRateCounts(input: {
    holder: string;
    counts: readonly RateCount[];
    expiresAt: string;
    purgeBefore: string;
  }): Promise<RateCount[]>;
}

interface Slot {
  account: string;
  window: string;
  endMs: number;
  /** Counted by this replica. */
  requests: number;
  tokens: number;
  /** Counted by the other replicas, as of the last sync. */
  otherRequests: number;
  otherTokens: number;
  /** Resolves once the slot was synced at least once (others' counts known). */
  ready: Promise<void> | null;
}

/** What one admitted call holds: the slots it was counted in. */
export interface RateAdmission {
  slots: readonly Slot[];
}

export const NO_RATE_ADMISSION: RateAdmission = Object.freeze({ slots: [] });

export interface RateBookOptions {
  store: RateCountStore;
  holder: string;
  clock: Clock;
  /** How often counts are exchanged with the other replicas (bounds the excess). */
  syncMs: number;
  log(msg: string, err?: unknown): void;
}

/**
 * Per-minute request and token counts per account, shared by the replicas through the store.
 * Calls are admitted from memory: this replica's count plus the others' as of the last sync
 * (every `syncMs`), so no call waits for the database, except the first call of an account in a
 * minute on this replica, which reads the others' counts once. Replicas admitting at the same
 * moment can together exceed a limit by what they admit within one sync interval; a replica
 * never exceeds it alone. Tokens are counted when a call settles: a call is admitted while the
 * minute's tokens are under the limit.
 */
export class RateBook {
  private readonly slots = new Map<string, Slot>();
  private readonly timer: NodeJS.Timeout;
  private syncing: Promise<void> | null = null;

  constructor(private readonly options: RateBookOptions) {
    this.timer = setInterval(() => void this.sync(), Math.max(10, options.syncMs));
    this.timer.unref();
  }

  /** Counts the call in every limited account, or throws the first limit's 429. */
  async admit(limits: readonly RateLimit[]): Promise<RateAdmission> {
    if (limits.length === 0) return NO_RATE_ADMISSION;
    const now = this.options.clock.now().getTime();
    const slots: Slot[] = [];
    for (const limit of limits) {
      const slot = this.slot(limit.account, now);
      if (slot.ready !== null) await slot.ready;
      if (!slots.includes(slot)) slots.push(slot);
    }
    for (const limit of limits) {
      const slot = this.slot(limit.account, now);
      const refusal = this.check(limit, slot, now);
      if (refusal !== null) throw limit.exceeded(refusal);
    }
    for (const slot of slots) slot.requests += 1;
    return { slots };
  }

  /** The call was refused after admission (e.g. by a budget): it does not count. */
  release(admission: RateAdmission): void {
    for (const slot of admission.slots) slot.requests = Math.max(0, slot.requests - 1);
  }

  /** Tokens a settled call used, counted in the minute it was admitted in. */
  addTokens(admission: RateAdmission, tokens: number): void {
    if (!(tokens > 0)) return;
    for (const slot of admission.slots) slot.tokens += tokens;
  }

  /** Sends this replica's counts and reads the others'; old windows are dropped. Never rejects. */
  sync(): Promise<void> {
    this.syncing ??= this.exchange().finally(() => (this.syncing = null));
    return this.syncing;
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.sync();
  }

  private check(limit: RateLimit, slot: Slot, now: number): RateRefusal | null {
    const resetAtMs = slot.endMs;
    const retryAfterSeconds = Math.max(1, Math.ceil((resetAtMs - now) / 1000));
    const requests = slot.requests + slot.otherRequests;
    if (limit.requestsPerMinute !== null && requests + 1 > limit.requestsPerMinute)
      return {
        rule: 'requests_per_minute',
        limit: limit.requestsPerMinute,
        remaining: 0,
        resetAtMs,
        retryAfterSeconds,
      };
    const tokens = slot.tokens + slot.otherTokens;
    if (limit.tokensPerMinute !== null && tokens >= limit.tokensPerMinute)
      return { rule: 'tokens_per_minute', limit: limit.tokensPerMinute, remaining: 0, resetAtMs, retryAfterSeconds };
    return null;
  }

  private slot(account: string, now: number): Slot {
    const index = Math.floor(now / RATE_WINDOW_MS);
    const window = `minute:${index}`;
    const key = `${account}\n${window}`;
    let slot = this.slots.get(key);
    if (slot === undefined) {
      const fresh: Slot = {
        account,
        window,
        endMs: (index + 1) * RATE_WINDOW_MS,
        requests: 0,
        tokens: 0,
        otherRequests: 0,
        otherTokens: 0,
        ready: null,
      };
      // A sync under way may have started before this slot existed: wait for the next one.
      const previous = this.syncing ?? Promise.resolve();
      fresh.ready = previous
        .then(() => this.sync())
        .then(() => {
          fresh.ready = null;
        });
      this.slots.set(key, fresh);
      slot = fresh;
    }
    return slot;
  }

  private async exchange(): Promise<void> {
    const now = this.options.clock.now().getTime();
    for (const [key, slot] of this.slots) if (slot.endMs + RATE_WINDOW_MS <= now) this.slots.delete(key);
    const live = [...this.slots.values()];
    if (live.length === 0) return;
    const sent = live.map((s) => ({ account: s.account, window: s.window, requests: s.requests, tokens: s.tokens }));
    try {
      const totals = await this.options.store.syncRateCounts({
        holder: this.options.holder,
        counts: sent,
        expiresAt: new Date(now + 2 * RATE_WINDOW_MS).toISOString(),
        purgeBefore: new Date(now).toISOString(),
      });
      const byKey = new Map(totals.map((t) => [`${t.account}\n${t.window}`, t]));
      live.forEach((slot, i) => {
        const total = byKey.get(`${slot.account}\n${slot.window}`);
        const mine = sent[i];
        if (total === undefined || mine === undefined) return;
        slot.otherRequests = Math.max(0, total.requests - mine.requests);
        slot.otherTokens = Math.max(0, total.tokens - mine.tokens);
      });
    } catch (error) {
      // Admission goes on from what this replica knows; the next sync catches up.
      this.options.log('rate limits: exchanging counts with the store failed', error);
    }
  }
}
