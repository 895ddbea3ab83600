import type { Clock } from '../common/clock.js';
import { ReadWriteGate } from './gate.js';
import { SlotMap } from './slot-map.js';
import type { Budget, LeaseGrant, LeaseSlot, LeaseState, LedgerRepository } from './types.js';
import { limitWindow } from './windows.js';

/** Money comparisons tolerate float noise far below a cent. */
const EPSILON = 1e-9;
/** Rows of any replica that expired this long ago are purged on renewal. */
const PURGE_AFTER_MS = 60_000;
/** A lease is taken for this many calls like the one asking at first; doubled when grants come fast. */
const MIN_LEASE_CALLS = 64;
const MAX_LEASE_CALLS = 1024;
/** Grants closer together than this double the lease size; further apart than 10× this halve it. */
const FAST_GRANTS_MS = 2000;
/** After a refused grant, calls needing more than the room it saw are refused from memory this long. */
const REFUSAL_MEMORY_MS = 1000;

export type LeaseStore = Pick<LedgerRepository, 'grantLease' | 'renewLeases' | 'releaseLeases'>;

export interface LeaseBookOptions {
  store: LeaseStore;
  holder: string;
  clock: Clock;
  ttlMs: number;
  idleMs: number;
  /** Runs a grant in the meter's spend-read turn, so no ledger batch commits while it runs. */
  readTurn<T>(fn: () => Promise<T>): Promise<T>;
  /** What this replica has in flight or settled-but-unwritten in a slot (it must stay covered). */
  used(account: string, window: string): number;
  log(msg: string, err?: unknown): void;
}

interface Lease extends LeaseState {
  /** Usable until this clock time (the row lives `ttlMs`; we stop a margin earlier). */
  validUntilMs: number;
  /** The last grant got less than it wanted: the budget is nearly spent, so no refills ahead. */
  capped: boolean;
  /** The limit the lease was granted under: a lower limit now makes it void until granted again. */
  limitUsd: number;
  /** How many calls the next grant is asked for (adapts to how busy the slot is). */
  calls: number;
  grantedAtMs: number;
  /** Last value written to the store. */
  syncedUsd: number;
  lastUsedMs: number;
}

const slotOf = (account: string, window: string): string => `${account}\n${window}`;

/** One account's window that a call must fit in, with the tightest budget checked there. */
export interface BudgetSlot extends LeaseSlot {
  budget: Budget;
}

/** One slot per (account, window) of the budgets; where several meet, the lowest limit governs. */
export function budgetSlots(checks: readonly Budget[], now: Date): BudgetSlot[] {
  // A call has a handful of budgets: a scan beats building and hashing joined keys.
  const slots: BudgetSlot[] = [];
  for (const budget of checks) {
    const window = limitWindow(budget.reset, now);
    const seen = slots.findIndex((s) => s.account === budget.account && s.window === window);
    if (seen === -1) slots.push({ account: budget.account, window, budget });
    else if (budget.limitUsd < (slots[seen]?.budget.limitUsd ?? Number.POSITIVE_INFINITY))
      slots[seen] = { account: budget.account, window, budget };
  }
  return slots;
}

/**
 * This replica's budget leases (docs/metering.md, "Several replicas"). A lease is money of one
 * account's window that this replica may turn into spend without asking anyone: what it admits
 * (in flight + settled but unwritten) never exceeds its lease, and every replica's lease plus the
 * stored spend never exceeds the limit, because grants are checked in the store, one at a time
 * per slot. A lease shrinks as this replica's spend is stored (`consume`), is renewed while in
 * use, and is given back when idle; a crashed replica's lease expires by itself.
 */
export class LeaseBook {
  private readonly leases = new SlotMap<Lease>();
  private readonly grants = new SlotMap<Promise<LeaseGrant>>();
  private readonly refusals = new SlotMap<{ roomUsd: number; atMs: number }>();
  /** Grants share it; renewal and release take it alone (a stale renewal must not undo a grant). */
  private readonly turn = new ReadWriteGate();
  private readonly marginMs: number;
  /** Bumped by forgetAll(): a grant that started before it is not recorded. */
  private epoch = 0;

  constructor(private readonly options: LeaseBookOptions) {
    this.marginMs = Math.min(5000, Math.floor(options.ttlMs / 3));
  }

  /**
   * The lease usable now in the slot: 0 when there is none, it is past its local validity, or it
   * was granted under a higher limit than `limitUsd` (the budget was lowered since: from now on
   * nothing is admitted from it until a grant under the new limit).
   */
  usable(account: string, window: string, limitUsd = Number.POSITIVE_INFINITY): number {
    const lease = this.leases.get(account, window);
    if (lease === undefined || lease.validUntilMs <= this.nowMs()) return 0;
    if (lease.limitUsd > limitUsd + EPSILON) {
      lease.validUntilMs = 0;
      return 0;
    }
    return lease.leaseUsd;
  }

  /** What this replica has in flight or settled-but-unwritten in the slot. */
  used(account: string, window: string): number {
    return this.options.used(account, window);
  }

  touch(account: string, window: string): void {
    const lease = this.leases.get(account, window);
    if (lease !== undefined) lease.lastUsedMs = this.nowMs();
  }

  /** How many calls like the one asking a grant of this slot should cover. */
  leaseCalls(account: string, window: string): number {
    return this.leases.get(account, window)?.calls ?? MIN_LEASE_CALLS;
  }

  capped(account: string, window: string): boolean {
    return this.leases.get(account, window)?.capped ?? false;
  }

  /** Whether a grant for the slot is under way (callers wait for it instead of starting another). */
  pending(account: string, window: string): Promise<LeaseGrant> | undefined {
    return this.grants.get(account, window);
  }

  /**
   * The room a grant of this slot was refused with less than a second ago, if a call needing
   * `extraUsd` more than is used now would not fit in it either: refuse it without asking again.
   */
  recentRefusal(account: string, window: string, extraUsd: number): number | null {
    const refusal = this.refusals.get(account, window);
    if (refusal === undefined) return null;
    if (this.nowMs() - refusal.atMs >= REFUSAL_MEMORY_MS) {
      this.refusals.delete(account, window);
      return null;
    }
    return this.options.used(account, window) + extraUsd > refusal.roomUsd + EPSILON ? refusal.roomUsd : null;
  }

  /**
   * Asks the store to raise this replica's lease to what is used now plus `extraUsd` (never below
   * what it holds, so nothing admitted meanwhile is left uncovered), and up to `chunkUsd` more.
   * "Used now" is read in the grant's turn, after any ledger batch in flight. One grant per slot at
   * a time: a caller finding one under way gets that one and checks again.
   */
  extend(slot: LeaseSlot, limitUsd: number, extraUsd: number, chunkUsd: number): Promise<LeaseGrant> {
    const running = this.grants.get(slot.account, slot.window);
    if (running !== undefined) return running;
    const grant = this.options
      .readTurn(() => this.turn.read(() => this.grant(slot, limitUsd, extraUsd, chunkUsd)))
      .finally(() => {
        if (this.grants.get(slot.account, slot.window) === grant) this.grants.delete(slot.account, slot.window);
      });
    this.grants.set(slot.account, slot.window, grant);
    return grant;
  }

  /** Spend of this replica reached the store: it no longer needs lease money. */
  consume(account: string, window: string, amountUsd: number): void {
    const lease = this.leases.get(account, window);
    if (lease !== undefined) lease.leaseUsd -= amountUsd;
  }

  /**
   * Gives back idle leases, writes shrunken ones and renews those near expiry, in one turn that no
   * grant overlaps. `used` is what this replica has in flight or unwritten in a slot.
   */
  maintain(): Promise<void> {
    const used = (account: string, window: string) => this.options.used(account, window);
    return this.turn.write(async () => {
      const now = this.nowMs();
      const idle: LeaseSlot[] = [];
      const due: Lease[] = [];
      for (const lease of this.leases.values()) {
        if (used(lease.account, lease.window) <= EPSILON && now - lease.lastUsedMs >= this.options.idleMs) {
          // Out of the book before the await: nothing is admitted from a lease being given back.
          this.leases.delete(lease.account, lease.window);
          idle.push({ account: lease.account, window: lease.window });
        } else if (
          lease.validUntilMs - now < this.options.ttlMs / 2 ||
          Math.abs(lease.leaseUsd - lease.syncedUsd) > EPSILON
        ) {
          due.push(lease);
        }
      }
      if (idle.length > 0) await this.options.store.releaseLeases(this.options.holder, idle);
      if (due.length === 0) return;
      const states = due.map((l) => ({ account: l.account, window: l.window, leaseUsd: Math.max(0, l.leaseUsd) }));
      const missing = await this.options.store.renewLeases(
        this.options.holder,
        states,
        this.iso(now + this.options.ttlMs),
        this.iso(now - PURGE_AFTER_MS),
      );
      const gone = new Set(missing.map((s) => slotOf(s.account, s.window)));
      due.forEach((lease, i) => {
        if (gone.has(slotOf(lease.account, lease.window))) {
          // Expired and reclaimed by another replica: nothing is set aside for us any more.
          lease.leaseUsd = 0;
          lease.validUntilMs = 0;
          return;
        }
        lease.syncedUsd = states[i]?.leaseUsd ?? lease.syncedUsd;
        lease.validUntilMs = now + this.options.ttlMs - this.marginMs;
      });
    });
  }

  /**
   * The database was replaced (a restore): every lease was granted against spend counters that
   * are gone, so none is usable any more. Nothing is written: the restored content has its own
   * lease rows, which expire by themselves, and the next grant of a slot replaces this holder's row.
   */
  forgetAll(): void {
    this.epoch += 1;
    this.leases.clear();
    this.refusals.clear();
  }

  /** At shutdown, after the last ledger flush: every lease goes back at once. */
  async releaseAll(): Promise<void> {
    const slots = this.leases.values().map((l) => ({ account: l.account, window: l.window }));
    this.leases.clear();
    if (slots.length > 0) await this.options.store.releaseLeases(this.options.holder, slots);
  }

  private async grant(slot: LeaseSlot, limitUsd: number, extraUsd: number, chunkUsd: number): Promise<LeaseGrant> {
    const now = this.nowMs();
    const epoch = this.epoch;
    const held = this.usable(slot.account, slot.window, limitUsd);
    const used = this.options.used(slot.account, slot.window);
    const need = Math.max(used + extraUsd, held);
    const want = Math.max(need, used + extraUsd + chunkUsd);
    const result = await this.options.store.grantLease({
      account: slot.account,
      window: slot.window,
      holder: this.options.holder,
      limitUsd,
      needUsd: need,
      wantUsd: want,
      now: this.iso(now),
      expiresAt: this.iso(now + this.options.ttlMs),
    });
    // Forgotten meanwhile: the answer may come from the replaced database. Not recorded, and not
    // a refusal: the caller finds no lease and asks again.
    if (epoch !== this.epoch) return { leaseUsd: result.leaseUsd ?? 0, roomUsd: result.roomUsd };
    if (result.leaseUsd === null) {
      this.refusals.set(slot.account, slot.window, { roomUsd: result.roomUsd, atMs: now });
      return result;
    }
    this.refusals.delete(slot.account, slot.window);
    const existing = this.leases.get(slot.account, slot.window);
    const lease: Lease = existing ?? {
      account: slot.account,
      window: slot.window,
      leaseUsd: 0,
      validUntilMs: 0,
      capped: false,
      limitUsd,
      calls: MIN_LEASE_CALLS,
      grantedAtMs: Number.NEGATIVE_INFINITY,
      syncedUsd: 0,
      lastUsedMs: now,
    };
    // A busy slot gets bigger leases (fewer grants, and more calls served if the store goes away).
    const sinceLast = now - lease.grantedAtMs;
    if (sinceLast < FAST_GRANTS_MS) lease.calls = Math.min(MAX_LEASE_CALLS, lease.calls * 2);
    else if (sinceLast > FAST_GRANTS_MS * 10) lease.calls = Math.max(MIN_LEASE_CALLS, lease.calls / 2);
    lease.grantedAtMs = now;
    lease.leaseUsd = result.leaseUsd;
    lease.limitUsd = limitUsd;
    lease.capped = result.leaseUsd < want - EPSILON;
    lease.syncedUsd = result.leaseUsd;
    lease.validUntilMs = now + this.options.ttlMs - this.marginMs;
    lease.lastUsedMs = now;
    this.leases.set(slot.account, slot.window, lease);
    return result;
  }

  private nowMs(): number {
    return this.options.clock.now().getTime();
  }

  private iso(ms: number): string {
    return new Date(ms).toISOString();
  }
}
