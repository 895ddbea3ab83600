/**
 * Retention of the ledger (docs/deploy.md, "Retention"), read once at start. Off unless set:
 * deleting records is never a surprise of an upgrade.
 */
export interface RetentionConfig {
  /** Generations (refusals included) older than this many days are pruned; null: kept forever. */
  generationsDays: number | null;
  /** Hourly and daily rollups older than this many days are pruned; null: kept forever. */
  rollupsDays: number | null;
  /** Rows deleted per statement (one short transaction each). */
  batchSize: number;
  /** How often a replica tries to prune (only the one holding the lease does). */
  intervalMs: number;
}

export class RetentionConfigError extends Error {}

function days(env: NodeJS.ProcessEnv, name: string, min: number): number | null {
  const raw = (env[name] ?? '').trim();
  if (raw === '' || raw === '0') return null;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > 36_500)
    throw new RetentionConfigError(`${name} must be 0 (keep forever) or a whole number of days from ${min} to 36500`);
  return value;
}

function integer(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max: number): number {
  const raw = (env[name] ?? '').trim();
  if (raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max)
    throw new RetentionConfigError(`${name} must be an integer from ${min} to ${max}, got "${raw}"`);
  return value;
}

/**
 * Rollups feed the console's 30-day charts and `/activity`, so they are kept at least 31 days,
 * and never shorter than the generations they sum.
 */
export function loadRetentionConfig(env: NodeJS.ProcessEnv): RetentionConfig {
  const generationsDays = days(env, 'SWITCHYARD_RETENTION_DAYS', 1);
  const rollupsDays = days(env, 'SWITCHYARD_ROLLUP_RETENTION_DAYS', 31);
  if (rollupsDays !== null && (generationsDays === null || rollupsDays < generationsDays))
    throw new RetentionConfigError(
      'SWITCHYARD_ROLLUP_RETENTION_DAYS must be at least SWITCHYARD_RETENTION_DAYS (rollups outlive the generations they sum)',
    );
  return {
    generationsDays,
    rollupsDays,
    batchSize: integer(env, 'SWITCHYARD_RETENTION_BATCH', 500, 1, 100_000),
    intervalMs: integer(env, 'SWITCHYARD_RETENTION_INTERVAL_MS', 600_000, 1000, 86_400_000),
  };
}
