import { randomBytes } from 'node:crypto';
import type { KeyRecord } from '../keys/types.js';
import type { KeyUsage, KeyUsageReader } from '../keys/usage.js';
import { ReadWriteGate } from './gate.js';
import { admit, admitFromLeases, GrantFailed } from './admission.js';
import { budgetSlots, LeaseBook } from './lease-book.js';
import { SpendBook } from './spend-book.js';
import { forEachSettledDelta, keyBudget, settledDeltas } from './accounts.js';
import { MeterJournal } from './meter-journal.js';
import type {
  Budget,
  GenerationRecord,
  JournalMark,
  LedgerRepository,
  Meter,
  MeterOptions,
  Reservation,
} from './types.js';
import { windowList, windowsAt } from './windows.js';

const LOG_EVERY_N_FAILURES = 40;

interface Queued {
  generation: GenerationRecord;
  /**
   * When it settled: its spend rows are built from it when the batch is written, so a queued call
   * keeps one number rather than a row per account and window until then.
   */
  settledAtMs: number;
  /** The journal segment holding it, or null without a journal (or when the append failed). */
  mark: JournalMark | null;
}

const money = (value: number): number => (Number.isFinite(value) && value > 0 ? value : 0);
/** `money(value)` would return `value` itself (no NaN, infinity, negative or -0). */
const isMoney = (value: number): boolean => (value > 0 && Number.isFinite(value)) || Object.is(value, 0);

/**
 * The meter: reservations against key limits (in memory, per key), settled spend visible at once,
 * and generation + spend rows written in batches off the hot path. See docs/metering.md.
 */
export function createMeter(options: MeterOptions): Meter {
  return new BatchingMeter(options);
}

class BatchingMeter implements Meter {
  private readonly ledger: LedgerRepository;
  private readonly options: MeterOptions;
  private readonly maxBatch: number;
  private readonly alarmAt: number;
  private readonly book = new SpendBook();
  private readonly addPending = (account: string, window: string, amountUsd: number): void =>
    this.book.addPending(account, window, amountUsd);
  private readonly gate = new ReadWriteGate();
  private readonly leases: LeaseBook;
  private readonly journal: MeterJournal;
  private readonly active = new WeakSet<Reservation>();
  private readonly keyBudgets = new WeakMap<KeyRecord, Budget>();
  private maintaining = false;
  private grantFailureLoggedAt = Number.NEGATIVE_INFINITY;
  /** Settled, not yet handed to the ledger. */
  private queue: Queued[] = [];
  /** Settled and not yet known to be stored (queue + the batch being written), by id. */
  private readonly unwritten = new Map<string, GenerationRecord>();
  private draining: Promise<boolean> | null = null;
  private lastError: unknown = null;
  private failures = 0;
  private failedSinceTick = false;
  private closed = false;
  private readonly timer: NodeJS.Timeout;
  private readonly leaseTimer: NodeJS.Timeout;

  readonly usageReader: KeyUsageReader = { read: (hashes, now) => this.readUsage(hashes, now) };

  constructor(options: MeterOptions) {
    this.options = options;
    this.ledger = options.ledger;
    this.maxBatch = Math.max(1, options.maxBatch ?? 200);
    this.journal = new MeterJournal(options.journal, (msg, err) => this.log(msg, err));
    this.alarmAt = options.queueAlarmAt ?? 100_000;
    this.timer = setInterval(() => this.tick(), Math.max(1, options.flushIntervalMs ?? 250));
    this.timer.unref();
    const ttlMs = Math.max(1000, options.leaseTtlMs ?? 30_000);
    this.leases = new LeaseBook({
      store: this.ledger,
      holder: options.holder ?? `replica-${process.pid}-${randomBytes(6).toString('hex')}`,
      clock: options.clock,
      ttlMs,
      idleMs: Math.max(0, options.leaseIdleMs ?? 5000),
      readTurn: (fn) => this.gate.read(fn),
      used: (account, window) => this.used(account, window),
      log: (msg, err) => this.log(msg, err),
    });
    this.leaseTimer = setInterval(() => void this.maintainLeases(), Math.min(1000, Math.floor(ttlMs / 4)));
    this.leaseTimer.unref();
  }

  /**
   * Admits a call from this replica's budget leases (no database round trip while they cover
   * it); when one falls short, asks the store to extend it, then checks again. The check and the
   * hold are one synchronous step, so concurrent reserves of one account see each other's holds.
   */
  async reserve(key: KeyRecord, estimateUsd: number, budgets: readonly Budget[] = []): Promise<Reservation> {
    const amountUsd = money(estimateUsd);
    const checks: readonly Budget[] = key.limit === null ? budgets : [this.keyBudget(key, key.limit), ...budgets];
    const accounts: string[] = [];
    for (const budget of checks) if (!accounts.includes(budget.account)) accounts.push(budget.account);
    const reservation: Reservation = Object.freeze({ accounts, amountUsd });
    if (checks.length === 0) return reservation;
    const slots = budgetSlots(checks, this.options.clock.now());
    // BYOK spend would count here when include_byok_in_limit is set; there is no BYOK yet.
    const hold = () => {
      for (const account of accounts) this.book.hold(account, amountUsd);
      this.active.add(reservation);
    };
    // Leases that cover the call admit it at once; only a short one waits for the store.
    if (admitFromLeases(this.leases, slots, amountUsd, hold)) return reservation;
    try {
      await admit(this.leases, slots, amountUsd, hold);
    } catch (error) {
      if (error instanceof GrantFailed && Date.now() - this.grantFailureLoggedAt > 5000) {
        this.grantFailureLoggedAt = Date.now();
        this.log('meter: a budget lease could not be granted (database unreachable?); such calls get 503', error.cause);
      }
      throw error instanceof GrantFailed ? error.toGatewayError() : error;
    }
    return reservation;
  }

  /** The key's own budget, built once per key record and limit (records are cached by the authenticator). */
  private keyBudget(key: KeyRecord, limit: number): Budget {
    const known = this.keyBudgets.get(key);
    if (known !== undefined && known.limitUsd === limit && known.reset === key.limitReset) return known;
    const budget = keyBudget(key, limit);
    this.keyBudgets.set(key, budget);
    return budget;
  }

  /** What this replica has in flight or settled-but-unwritten in one account's window. */
  private used(account: string, window: string): number {
    return this.book.reservedFor(account) + this.book.pendingFor(account, window);
  }

  private async maintainLeases(): Promise<void> {
    if (this.maintaining || this.closed) return;
    this.maintaining = true;
    try {
      await this.leases.maintain();
    } catch (error) {
      this.log('meter: budget leases could not be renewed (they stay usable until they expire)', error);
    } finally {
      this.maintaining = false;
    }
  }

  forgetLeases(): void {
    this.leases.forgetAll();
  }

  release(reservation: Reservation): void {
    if (!this.active.delete(reservation)) return;
    for (const account of reservation.accounts) this.book.unhold(account, reservation.amountUsd);
  }

  settle(reservation: Reservation, generation: GenerationRecord): void {
    try {
      this.release(reservation);
      // The caller hands the record over; it is copied only when a cost must be made sane.
      const record: GenerationRecord =
        isMoney(generation.promptCostUsd) && isMoney(generation.completionCostUsd) && isMoney(generation.costUsd)
          ? generation
          : {
              ...generation,
              promptCostUsd: money(generation.promptCostUsd),
              completionCostUsd: money(generation.completionCostUsd),
              costUsd: money(generation.costUsd),
            };
      const now = this.options.clock.now();
      forEachSettledDelta(record, now, this.addPending);
      const settledAtMs = now.getTime();
      this.queue.push({ generation: record, settledAtMs, mark: this.journal.append(record, settledAtMs) });
      this.unwritten.set(record.id, record);
      // After close() there is no timer: a late settle is written at once.
      if ((this.closed || this.queue.length >= this.maxBatch) && !this.failedSinceTick) void this.drain();
    } catch (error) {
      this.log('meter: settle failed', error);
    }
  }

  async getGeneration(id: string, keyHash: string): Promise<GenerationRecord | null> {
    // A row leaves `unwritten` only after its batch committed, so one of the two places has it.
    const found = this.unwritten.get(id) ?? (await this.ledger.findGeneration(id));
    return found !== null && found.keyHash === keyHash ? found : null;
  }

  queueDepth(): number {
    return this.unwritten.size;
  }

  async flush(): Promise<void> {
    while (this.queue.length > 0 || this.draining !== null) {
      if (!(await this.drain())) throw this.lastError;
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.timer);
    clearInterval(this.leaseTimer);
    let clean = true;
    try {
      await this.flush();
    } catch (error) {
      clean = false;
      const fate = !this.journal.enabled ? 'are lost' : 'stay in the ledger journal and are written at the next start';
      this.log(`ALARM meter: ${this.unwritten.size} generation(s) could not be written at shutdown and ${fate}`, error);
    }
    this.journal.close(clean);
    // Unused budget goes back to the other replicas at once (else it would wait for the expiry).
    await this.leases
      .releaseAll()
      .catch((error: unknown) => this.log('meter: budget leases not released (they expire by themselves)', error));
  }

  private tick(): void {
    this.failedSinceTick = false;
    this.journal.sync();
    if (this.queue.length > 0) void this.drain();
  }

  /** Writes batches until the queue is empty (true) or a batch fails (false). One drain at a time. */
  private drain(): Promise<boolean> {
    this.draining ??= (async () => {
      try {
        while (this.queue.length > 0) if (!(await this.writeNext())) return false;
        return true;
      } finally {
        this.draining = null;
      }
    })();
    return this.draining;
  }

  private async writeNext(): Promise<boolean> {
    const batch = this.queue.slice(0, this.maxBatch);
    this.queue = this.queue.slice(batch.length);
    const deltas = batch.flatMap((q) => settledDeltas(q.generation, new Date(q.settledAtMs)));
    try {
      await this.gate.write(async () => {
        await this.ledger.writeBatch(
          batch.map((q) => q.generation),
          deltas,
        );
        // Under the write turn: no spend read or lease grant overlaps the move from pending to committed.
        for (const d of deltas) {
          this.book.commitPending(d.account, d.window, d.amountUsd);
          this.leases.consume(d.account, d.window, d.amountUsd);
        }
        for (const q of batch) this.unwritten.delete(q.generation.id);
      });
      this.journal.committed(batch.map((q) => q.mark));
    } catch (error) {
      this.queue = [...batch, ...this.queue];
      this.onFailure(error);
      return false;
    }
    if (this.failures > 0) this.log(`meter: ledger writes recovered after ${this.failures} failed attempt(s)`);
    this.failures = 0;
    return true;
  }

  private onFailure(error: unknown): void {
    this.lastError = error;
    this.failedSinceTick = true;
    this.failures += 1;
    const depth = this.unwritten.size;
    if (this.failures === 1 || this.failures % LOG_EVERY_N_FAILURES === 0 || depth >= this.alarmAt) {
      const alarm = depth >= this.alarmAt ? 'ALARM ' : '';
      this.log(
        `${alarm}meter: ledger write failed (attempt ${this.failures}); ${depth} generation(s) kept queued for retry`,
        error,
      );
    }
    try {
      this.options.onFlushError?.(error);
    } catch {
      // A metrics hook must not break the meter.
    }
  }

  private async readUsage(hashes: string[], now: Date): Promise<Map<string, KeyUsage>> {
    const unique = [...new Set(hashes)];
    if (unique.length === 0) return new Map();
    const set = windowsAt(now);
    return this.gate.read(async () => {
      const rows = await this.ledger.usageFor(unique, windowList(set));
      const result = new Map<string, KeyUsage>();
      for (const hash of unique) {
        const stored = rows.get(hash);
        const own = (w: string) => (stored?.get(w)?.amountUsd ?? 0) + this.book.pendingFor(hash, w);
        const byok = (w: string) => stored?.get(w)?.byokUsd ?? 0;
        result.set(hash, {
          usage: own(set.lifetime),
          usageDaily: own(set.day),
          usageWeekly: own(set.week),
          usageMonthly: own(set.month),
          byokUsage: byok(set.lifetime),
          byokUsageDaily: byok(set.day),
          byokUsageWeekly: byok(set.week),
          byokUsageMonthly: byok(set.month),
        });
      }
      return result;
    });
  }

  private log(msg: string, err?: unknown): void {
    try {
      this.options.log?.(msg, err);
    } catch {
      // Logging must not break metering.
    }
  }
}
