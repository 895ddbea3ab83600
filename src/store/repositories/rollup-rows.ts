import type { GenerationRecord } from '../../domain/accounting/types.js';
import type { UsageRollupsDailyTable, UsageRollupsTable } from '../schema-console.js';

/** The hour bucket of a stored `created_at` (ISO-8601 UTC): `YYYY-MM-DDTHH`. */
export const hourOf = (createdAt: string): string => createdAt.slice(0, 13);
/** The day bucket of an hour bucket or a stored `created_at`: `YYYY-MM-DD`. */
export const dayOf = (at: string): string => at.slice(0, 10);

/**
 * Which rollups a ledger writer keeps: both levels in the product; the benchmark's baselines
 * (bench/analytics-bench.ts) measure the write path with fewer.
 */
export type RollupLevels = 'hourly+daily' | 'hourly' | 'none';

/** Key columns of `usage_rollups`, then the summed ones; fixed-text statements list them in this order. */
export const ROLLUP_KEY_COLUMNS = [
  'hour',
  'key_hash',
  'workspace_id',
  'model',
  'provider_id',
  'upstream_model',
] as const;
export const ROLLUP_SUM_COLUMNS = [
  'requests',
  'errors',
  'cancelled',
  'flagged',
  'refused',
  'prompt_tokens',
  'completion_tokens',
  'reasoning_tokens',
  'cost_usd',
  'generation_time_ms',
] as const;

/** Key columns of `usage_rollups_daily`: the hourly ones with `day` for `hour`. */
export const DAILY_ROLLUP_KEY_COLUMNS = [
  'day',
  'key_hash',
  'workspace_id',
  'model',
  'provider_id',
  'upstream_model',
] as const;

/** A new rollup row's summed columns, all zero. */
const zeroSums = (): Record<(typeof ROLLUP_SUM_COLUMNS)[number], number> => ({
  requests: 0,
  errors: 0,
  cancelled: 0,
  flagged: 0,
  refused: 0,
  prompt_tokens: 0,
  completion_tokens: 0,
  reasoning_tokens: 0,
  cost_usd: 0,
  generation_time_ms: 0,
});

export interface RollupSum extends UsageRollupsTable {
  prompt_tokens: number;
  completion_tokens: number;
  reasoning_tokens: number;
}

export interface DailyRollupSum extends UsageRollupsDailyTable {
  prompt_tokens: number;
  completion_tokens: number;
  reasoning_tokens: number;
}

/** How many calls a generation record stands for: 1, or a refusal row's count. */
export function callsOf(g: Pick<GenerationRecord, 'refusal'>): number {
  const count = g.refusal?.count;
  return count !== undefined && Number.isInteger(count) && count > 0 ? count : 1;
}

/**
 * The rollup deltas of a batch: the newly inserted generations summed per hour × key × model ×
 * provider endpoint, so that one upsert touches each rollup row once per batch (as the spend
 * counters). A generation already stored (a retried batch) is not counted twice.
 */
export function rollupSums(generations: readonly GenerationRecord[], inserted: ReadonlySet<string>): RollupSum[] {
  const byKey = new Map<string, RollupSum>();
  for (const g of generations) {
    if (!inserted.has(g.id)) continue;
    const hour = hourOf(g.createdAt);
    const id = `${hour}\u0000${g.keyHash}\u0000${g.workspaceId}\u0000${g.model}\u0000${g.providerId}\u0000${g.upstreamModel}`;
    let sum = byKey.get(id);
    if (sum === undefined) {
      sum = {
        hour,
        key_hash: g.keyHash,
        workspace_id: g.workspaceId,
        model: g.model,
        provider_id: g.providerId,
        upstream_model: g.upstreamModel,
        ...zeroSums(),
      };
      byKey.set(id, sum);
    }
    // A refusal row may stand for many refused calls (beyond the recorded rate, docs/metering.md).
    const calls = callsOf(g);
    sum.requests += calls;
    if (g.finishReason === 'error') sum.errors += calls;
    if (g.refusal !== null && g.refusal !== undefined) sum.refused += calls;
    if (g.cancelled) sum.cancelled += 1;
    if (g.flags.length > 0) sum.flagged += 1;
    sum.prompt_tokens += Math.round(g.promptTokens);
    sum.completion_tokens += Math.round(g.completionTokens);
    sum.reasoning_tokens += Math.round(g.reasoningTokens);
    sum.cost_usd += g.costUsd;
    sum.generation_time_ms += g.generationTimeMs;
  }
  return [...byKey.values()];
}

/**
 * The daily deltas of a batch: its hourly deltas summed per day (a batch spans an hour or two, so
 * this is one upsert per key × model × endpoint, as the hourly ones).
 */
export function dailySums(hourly: readonly RollupSum[]): DailyRollupSum[] {
  const byKey = new Map<string, DailyRollupSum>();
  for (const h of hourly) {
    const day = dayOf(h.hour);
    const id = `${day}\u0000${h.key_hash}\u0000${h.workspace_id}\u0000${h.model}\u0000${h.provider_id}\u0000${h.upstream_model}`;
    let sum = byKey.get(id);
    if (sum === undefined) {
      sum = {
        day,
        key_hash: h.key_hash,
        workspace_id: h.workspace_id,
        model: h.model,
        provider_id: h.provider_id,
        upstream_model: h.upstream_model,
        ...zeroSums(),
      };
      byKey.set(id, sum);
    }
    for (const c of ROLLUP_SUM_COLUMNS) sum[c] += h[c];
  }
  return [...byKey.values()];
}

/** `INSERT … ON CONFLICT DO UPDATE` adding to every summed column, with `?` placeholders (SQLite). */
const upsertSqlite = (table: string, keys: readonly string[]): string =>
  `INSERT INTO "${table}" (${[...keys, ...ROLLUP_SUM_COLUMNS].map((c) => `"${c}"`).join(', ')}) ` +
  `VALUES (${[...keys, ...ROLLUP_SUM_COLUMNS].map(() => '?').join(', ')}) ` +
  `ON CONFLICT (${keys.map((c) => `"${c}"`).join(', ')}) DO UPDATE SET ` +
  ROLLUP_SUM_COLUMNS.map((c) => `"${c}" = "${table}"."${c}" + "excluded"."${c}"`).join(', ');

export const ROLLUP_UPSERT_SQLITE = upsertSqlite('usage_rollups', ROLLUP_KEY_COLUMNS);
export const DAILY_ROLLUP_UPSERT_SQLITE = upsertSqlite('usage_rollups_daily', DAILY_ROLLUP_KEY_COLUMNS);

/** A rollup sum's values in ROLLUP_UPSERT_SQLITE's order. */
export const rollupValues = (sum: RollupSum): (string | number)[] => [
  ...ROLLUP_KEY_COLUMNS.map((c) => sum[c]),
  ...ROLLUP_SUM_COLUMNS.map((c) => sum[c]),
];

/** A daily rollup sum's values in DAILY_ROLLUP_UPSERT_SQLITE's order. */
export const dailyRollupValues = (sum: DailyRollupSum): (string | number)[] => [
  ...DAILY_ROLLUP_KEY_COLUMNS.map((c) => sum[c]),
  ...ROLLUP_SUM_COLUMNS.map((c) => sum[c]),
];
