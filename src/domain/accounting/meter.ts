import type { KeyRecord } from '../keys/types.js';
import type { KeyUsage, KeyUsageReader } from '../keys/usage.js';
import { ReadWriteGate } from './gate.js';
import { SpendBook } from './spend-book.js';
import { keyBudget, spendAccounts } from './accounts.js';
import type { Budget, GenerationRecord, LedgerRepository, Meter, MeterOptions, Reservation, SpendDelta } from './types.js';
import { LIFETIME, limitWindow, windowList, windowsAt } from './windows.js';

/** Money comparisons tolerate float noise far below a cent. */
const EPSILON = 1e-9;
const LOG_EVERY_N_FAILURES = 40;

interface Queued {
  generation: GenerationRecord;
  deltas: SpendDelta[];
}

const money = (value: number): number => (Number.isFinite(value) && value > 0 ? value : 0);

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
  private readonly refreshMs: number;
  private readonly alarmAt: number;
  private readonly book = new SpendBook();
  private readonly gate = new ReadWriteGate();
  private readonly active = new WeakSet<Reservation>();
  private readonly loads = new Map<string, Promise<number>>();
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

  readonly usageReader: KeyUsageReader = { read: (hashes, now) => this.readUsage(hashes, now) };

  constructor(options: MeterOptions) {
    this.options = options;
    this.ledger = options.ledger;
    this.maxBatch = Math.max(1, options.maxBatch ?? 200);
    this.refreshMs = Math.max(0, options.spendRefreshMs ?? 30_000);
    this.alarmAt = options.queueAlarmAt ?? 100_000;
    this.timer = setInterval(() => this.tick(), Math.max(1, options.flushIntervalMs ?? 250));
    this.timer.unref();
  }

  async reserve(key: KeyRecord, estimateUsd: number, budgets: readonly Budget[] = []): Promise<Reservation> {
    const amountUsd = money(estimateUsd);
    const checks: Budget[] = key.limit === null ? [...budgets] : [keyBudget(key, key.limit), ...budgets];
    const accounts = [...new Set(checks.map((b) => b.account))];
    const reservation: Reservation = Object.freeze({ accounts, amountUsd });
    if (checks.length === 0) return reservation;
    const now = this.options.clock.now();
    const windows = checks.map((b) => limitWindow(b.reset, now));
    const stored = await Promise.all(checks.map((b, i) => this.committedSpend(b.account, windows[i] ?? LIFETIME)));
    // From here to hold() nothing awaits: concurrent reserves of one account see each other's holds.
    // BYOK spend would count here when include_byok_in_limit is set; there is no BYOK yet.
    checks.forEach((budget, i) => {
      const window = windows[i] ?? LIFETIME;
      const spent = (stored[i] ?? 0) + this.book.pendingFor(budget.account, window) + this.book.reservedFor(budget.account);
      const available = budget.limitUsd - spent;
      if (available <= EPSILON || amountUsd > available + EPSILON) {
        throw budget.exhausted({ remainingUsd: Math.max(0, available), estimateUsd: amountUsd });
      }
    });
    for (const account of accounts) this.book.hold(account, amountUsd);
    this.active.add(reservation);
    return reservation;
  }

  release(reservation: Reservation): void {
    if (!this.active.delete(reservation)) return;
    for (const account of reservation.accounts) this.book.unhold(account, reservation.amountUsd);
  }

  settle(reservation: Reservation, generation: GenerationRecord): void {
    try {
      this.release(reservation);
      const record: GenerationRecord = {
        ...generation,
        promptCostUsd: money(generation.promptCostUsd),
        completionCostUsd: money(generation.completionCostUsd),
        costUsd: money(generation.costUsd),
      };
      const deltas: SpendDelta[] = [];
      if (record.costUsd > 0) {
        for (const account of spendAccounts(record)) {
          for (const window of windowList(windowsAt(this.options.clock.now()))) {
            deltas.push({ generationId: record.id, account, window, amountUsd: record.costUsd, byokUsd: 0 });
            this.book.addPending(account, window, record.costUsd);
          }
        }
      }
      this.queue.push({ generation: record, deltas });
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
    try {
      await this.flush();
    } catch (error) {
      this.log(`ALARM meter: ${this.unwritten.size} generation(s) could not be written at shutdown and are lost`, error);
    }
  }

  private tick(): void {
    this.failedSinceTick = false;
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
    const deltas = batch.flatMap((q) => q.deltas);
    try {
      await this.gate.write(async () => {
        await this.ledger.writeBatch(
          batch.map((q) => q.generation),
          deltas,
        );
        // Under the write turn: no spend read overlaps the move from pending to committed.
        for (const d of deltas) this.book.commitPending(d.account, d.window, d.amountUsd);
        for (const q of batch) this.unwritten.delete(q.generation.id);
      });
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
      this.log(`${alarm}meter: ledger write failed (attempt ${this.failures}); ${depth} generation(s) kept queued for retry`, error);
    }
    try {
      this.options.onFlushError?.(error);
    } catch {
      // A metrics hook must not break the meter.
    }
  }

  /** Stored spend of an account in a window, cached and re-read after `spendRefreshMs`. */
  private async committedSpend(account: string, window: string): Promise<number> {
    const cached = this.book.cached(account, window);
    const nowMs = this.options.clock.now().getTime();
    if (cached !== undefined && nowMs - cached.loadedAtMs < this.refreshMs) return cached.amount;
    const slot = `${account}\n${window}`;
    let load = this.loads.get(slot);
    if (load === undefined) {
      load = this.gate
        .read(async () => {
          const rows = await this.ledger.spendFor(account, [window]);
          const amount = rows.get(window)?.amountUsd ?? 0;
          this.book.cache(account, window, amount, nowMs);
          return amount;
        })
        .finally(() => this.loads.delete(slot));
      this.loads.set(slot, load);
    }
    await load;
    // Batches that committed since the load were added to the cache entry by writeNext.
    return this.book.cached(account, window)?.amount ?? (await load);
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
