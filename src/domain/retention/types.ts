/** Deletes of the retention pruner and the lease that lets one replica run it at a time (src/store/repositories/retention.ts). */
export interface RetentionRepository {
  /**
   * Takes the job's lease for `holder` until `expiresAt`, or extends it when `holder` has it:
   * true. False when another holder's lease runs past `now`. One statement, so two replicas
   * asking at once never both get it.
   */
  acquireLease(job: string, holder: string, now: string, expiresAt: string): Promise<boolean>;
  /** Gives the lease back, if `holder` still has it. */
  releaseLease(job: string, holder: string): Promise<void>;
  /** Deletes up to `limit` generations created before `before` (ISO-8601), oldest first; how many. */
  pruneGenerations(before: string, limit: number): Promise<number>;
  /** Deletes the oldest hour bucket of `usage_rollups` before `beforeHour` (`YYYY-MM-DDTHH`); rows deleted (0: none left). */
  pruneHourlyRollups(beforeHour: string): Promise<number>;
  /** Deletes the oldest day bucket of `usage_rollups_daily` before `beforeDay` (`YYYY-MM-DD`); rows deleted. */
  pruneDailyRollups(beforeDay: string): Promise<number>;
}
