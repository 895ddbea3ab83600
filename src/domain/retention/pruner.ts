import type { Clock } from '../common/clock.js';
import type { RetentionRepository } from './types.js';

const DAY_MS = 86_400_000;
const JOB = 'retention';

export interface RetentionPolicy {
  /** Generations (refusals included) older than this many days go; null: kept. */
  generationsDays: number | null;
  /** Hourly and daily rollups older than this many days go; null: kept. */
  rollupsDays: number | null;
  /** Generations deleted per statement. */
  batchSize: number;
}

export interface RetentionPrunerOptions {
  repository: RetentionRepository;
  clock: Clock;
  policy: RetentionPolicy;
  /** This replica's name on the lease (unique per process). */
  holder: string;
  /** How long the lease lasts unless renewed; renewed after every batch (default 60 s). */
  leaseMs?: number;
  /** Pause between batches, so the ledger's writes and the reads get the database in between (default 20 ms). */
  pauseMs?: number;
  /** Most statements per run; the rest waits for the next run (default 10 000). */
  maxBatchesPerRun?: number;
  log?: (msg: string, err?: unknown) => void;
}

export interface PruneReport {
  generations: number;
  hourlyRollups: number;
  dailyRollups: number;
  /** Delete statements run (each its own short transaction). */
  batches: number;
}

const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Deletes generations and rollups older than their retention (docs/deploy.md, "Retention"), in
 * small batches, in the background. Several replicas may run one each: a run first takes the
 * `retention` lease row (one atomic upsert), renews it after every batch and gives it back at the
 * end, so one replica prunes at a time and a replica that dies mid-run hands over once its lease
 * expires. The others find the lease taken and do nothing until their next run.
 */
export class RetentionPruner {
  private readonly leaseMs: number;
  private readonly pauseMs: number;
  private readonly maxBatches: number;
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<PruneReport | null> | null = null;
  private stopping = false;

  constructor(private readonly options: RetentionPrunerOptions) {
    this.leaseMs = options.leaseMs ?? 60_000;
    this.pauseMs = options.pauseMs ?? 20;
    this.maxBatches = options.maxBatchesPerRun ?? 10_000;
  }

  /**
   * Prunes every `intervalMs`, the first run at most 30 s after start (replicas restarted more
   * often than the interval still prune); nothing when no retention is set.
   */
  start(intervalMs: number): void {
    const { generationsDays, rollupsDays } = this.options.policy;
    if (generationsDays === null && rollupsDays === null) return;
    const tick = () => {
      this.runOnce().catch((error: unknown) => this.options.log?.('retention: a pruning run failed', error));
    };
    this.timer = setTimeout(
      () => {
        if (this.stopping) return;
        tick();
        this.timer = setInterval(tick, intervalMs);
        this.timer.unref();
      },
      Math.min(intervalMs, 30_000),
    );
    this.timer.unref();
  }

  /** Stops the timer and lets a run in progress end after its current batch. */
  async stop(): Promise<void> {
    this.stopping = true;
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    await this.running?.catch(() => undefined);
  }

  /** One run: null when another replica holds the lease (or a run of this one is under way). */
  runOnce(): Promise<PruneReport | null> {
    if (this.running !== null) return Promise.resolve(null);
    this.running = this.run().finally(() => {
      this.running = null;
    });
    return this.running;
  }

  private async run(): Promise<PruneReport | null> {
    const { repository, holder } = this.options;
    if (!(await this.renew())) return null;
    const report: PruneReport = { generations: 0, hourlyRollups: 0, dailyRollups: 0, batches: 0 };
    try {
      const now = this.options.clock.now().getTime();
      const { generationsDays, rollupsDays, batchSize } = this.options.policy;
      if (generationsDays !== null) {
        const before = new Date(now - generationsDays * DAY_MS).toISOString();
        await this.batches(report, async () => {
          const n = await repository.pruneGenerations(before, batchSize);
          report.generations += n;
          return n >= batchSize;
        });
      }
      if (rollupsDays !== null) {
        // A bucket goes once it ended before the cutoff: hours before the cutoff's hour, days before its day.
        const cutoff = new Date(now - rollupsDays * DAY_MS).toISOString();
        await this.batches(report, async () => {
          const n = await repository.pruneHourlyRollups(cutoff.slice(0, 13));
          report.hourlyRollups += n;
          return n > 0;
        });
        await this.batches(report, async () => {
          const n = await repository.pruneDailyRollups(cutoff.slice(0, 10));
          report.dailyRollups += n;
          return n > 0;
        });
      }
      return report;
    } finally {
      await repository
        .releaseLease(JOB, holder)
        .catch((error: unknown) => this.options.log?.('retention: lease not given back (it expires)', error));
    }
  }

  /** Runs `batch` until it says there is no more, the run's budget is spent, the lease is lost or the pruner stops. */
  private async batches(report: PruneReport, batch: () => Promise<boolean>): Promise<void> {
    while (!this.stopping && report.batches < this.maxBatches) {
      report.batches += 1;
      if (!(await batch())) return;
      await pause(this.pauseMs);
      if (!(await this.renew())) return;
    }
  }

  /** Takes or extends the lease; false when another replica has it. */
  private renew(): Promise<boolean> {
    const now = this.options.clock.now().getTime();
    return this.options.repository.acquireLease(
      JOB,
      this.options.holder,
      new Date(now).toISOString(),
      new Date(now + this.leaseMs).toISOString(),
    );
  }
}
