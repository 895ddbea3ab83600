import { CompiledQuery, type Kysely } from 'kysely';
import type { GenerationRecord, SpendDelta } from '../../domain/accounting/types.js';
import { GENERATION_COLUMNS, toRow, type BatchWriter } from '../repositories/ledger-rows.js';
import { ROLLUP_SUM_COLUMNS, type RollupLevels } from '../repositories/rollup-rows.js';

type Column = (typeof GENERATION_COLUMNS)[number];

/** PostgreSQL array type each column is sent as (one array parameter per column). */
const ARRAY_TYPE: Record<Column, 'text[]' | 'integer[]' | 'double precision[]'> = {
  id: 'text[]',
  request_id: 'text[]',
  key_hash: 'text[]',
  workspace_id: 'text[]',
  creator_user_id: 'text[]',
  model: 'text[]',
  provider_id: 'text[]',
  upstream_model: 'text[]',
  upstream_id: 'text[]',
  api_type: 'text[]',
  streamed: 'integer[]',
  cancelled: 'integer[]',
  finish_reason: 'text[]',
  native_finish_reason: 'text[]',
  prompt_tokens: 'integer[]',
  completion_tokens: 'integer[]',
  reasoning_tokens: 'integer[]',
  cached_tokens: 'integer[]',
  usage_estimated: 'integer[]',
  prompt_cost_usd: 'double precision[]',
  completion_cost_usd: 'double precision[]',
  cost_usd: 'double precision[]',
  latency_ms: 'double precision[]',
  generation_time_ms: 'double precision[]',
  preset_id: 'text[]',
  preset_version: 'integer[]',
  flags: 'text[]',
  attempts: 'text[]',
  created_at: 'text[]',
  user_agent: 'text[]',
  session_id: 'text[]',
  origin: 'text[]',
  refusal_status: 'integer[]',
  refusal_code: 'text[]',
  refusal_reason: 'text[]',
  refusal_count: 'integer[]',
};

const columnList = GENERATION_COLUMNS.map((c) => `"${c}"`).join(', ');
const generationArrays = GENERATION_COLUMNS.map((c, i) => `$${i + 1}::${ARRAY_TYPE[c]}`).join(', ');
const n = GENERATION_COLUMNS.length;

/**
 * One statement, the same text for every batch (nothing is built or compiled per batch, and one
 * statement is one transaction): the generations arrive as one array per column and are inserted
 * skipping stored ids. The deltas arrive as arrays too, compactly: the (account, window) slots
 * once each, and per delta the generation's and the slot's position (1-based) and the amounts.
 * The deltas of the generations actually inserted are summed per slot in the order they were
 * given (as the other writers sum them) and added to the counters, locked in slot order. The
 * inserted generations are also summed per hour × key × model × endpoint into `usage_rollups`
 * and per day into `usage_rollups_daily` (each table's rows locked in key order, the tables in
 * the same order by every replica, so concurrent replicas never deadlock on them).
 */
const INSERT_GENERATIONS = `WITH "inserted" AS (
  INSERT INTO "generations" (${columnList})
  SELECT * FROM unnest(${generationArrays})
  ON CONFLICT ("id") DO NOTHING
  RETURNING "id", "created_at", "key_hash", "workspace_id", "model", "provider_id", "upstream_model", "finish_reason",
    "cancelled", "flags", "prompt_tokens", "completion_tokens", "reasoning_tokens", "cost_usd", "generation_time_ms",
    "refusal_status", coalesce("refusal_count", 1) AS "calls"
`;

/** A rollup step: the inserted generations summed per `bucket` (a prefix of `created_at`) and upserted. */
const rollupStep = (cte: string, table: string, bucket: string, length: number): string => `), "${cte}" AS (
  INSERT INTO "${table}" ("${bucket}", "key_hash", "workspace_id", "model", "provider_id", "upstream_model", "requests",
    "errors", "cancelled", "flagged", "refused", "prompt_tokens", "completion_tokens", "reasoning_tokens", "cost_usd",
    "generation_time_ms")
  SELECT substr("created_at", 1, ${length}), "key_hash", "workspace_id", "model", "provider_id", "upstream_model", sum("calls"),
    coalesce(sum("calls") FILTER (WHERE "finish_reason" = 'error'), 0), sum("cancelled"),
    count(*) FILTER (WHERE "flags" <> '[]'), coalesce(sum("calls") FILTER (WHERE "refusal_status" IS NOT NULL), 0),
    sum("prompt_tokens"), sum("completion_tokens"), sum("reasoning_tokens"), sum("cost_usd"), sum("generation_time_ms")
  FROM "inserted"
  GROUP BY 1, 2, 3, 4, 5, 6
  ORDER BY 1, 2, 3, 4, 5, 6
  ON CONFLICT ("${bucket}", "key_hash", "workspace_id", "model", "provider_id", "upstream_model") DO UPDATE SET
${ROLLUP_SUM_COLUMNS.map((c) => `    "${c}" = "${table}"."${c}" + "excluded"."${c}"`).join(',\n')}
`;

const HOURLY_ROLLUP = rollupStep('rollup', 'usage_rollups', 'hour', 13);
const DAILY_ROLLUP = rollupStep('rollup_daily', 'usage_rollups_daily', 'day', 10);

const SPEND = `), "position" AS (
  SELECT * FROM unnest($1::text[]) WITH ORDINALITY AS "p" ("id", "n")
), "slot" AS (
  SELECT * FROM unnest($${n + 1}::text[], $${n + 2}::text[]) WITH ORDINALITY AS "s" ("account", "window", "n")
), "delta" AS (
  SELECT * FROM unnest($${n + 3}::integer[], $${n + 4}::integer[], $${n + 5}::double precision[], $${n + 6}::double precision[])
    WITH ORDINALITY AS "d" ("generation", "slot", "amount_usd", "byok_usd", "ord")
)
INSERT INTO "spend_counters" ("account", "window", "amount_usd", "byok_usd")
SELECT "slot"."account", "slot"."window", sum("delta"."amount_usd" ORDER BY "delta"."ord"), sum("delta"."byok_usd" ORDER BY "delta"."ord")
FROM "delta"
JOIN "position" ON "position"."n" = "delta"."generation"
JOIN "inserted" ON "inserted"."id" = "position"."id"
JOIN "slot" ON "slot"."n" = "delta"."slot"
GROUP BY "slot"."account", "slot"."window"
ORDER BY "slot"."account", "slot"."window"
ON CONFLICT ("account", "window") DO UPDATE SET
  "amount_usd" = "spend_counters"."amount_usd" + "excluded"."amount_usd",
  "byok_usd" = "spend_counters"."byok_usd" + "excluded"."byok_usd"`;

/** The batch statement; with fewer rollup levels (the benchmark's baselines) their steps are left out. */
const writeBatchSql = (rollups: RollupLevels): string =>
  INSERT_GENERATIONS +
  (rollups === 'none' ? '' : HOURLY_ROLLUP) +
  (rollups === 'hourly+daily' ? DAILY_ROLLUP : '') +
  SPEND;

type Cell = string | number | null;

const NEEDS_ESCAPE = /["\\]/;

/**
 * A PostgreSQL array literal of the cells, as pg writes a JS array parameter (NULL; numbers
 * through `String`, which never needs quotes; strings double-quoted with `\` and `"` escaped),
 * without pg's per-element conversion and two regular-expression replacements.
 */
function arrayLiteral<T>(items: readonly T[], cell: (item: T) => Cell): string {
  const parts = new Array<string>(items.length);
  for (let i = 0; i < items.length; i++) {
    const value = cell(items[i] as T);
    if (value === null || value === undefined) parts[i] = 'NULL';
    else if (typeof value === 'number') parts[i] = String(value);
    else if (NEEDS_ESCAPE.test(value)) parts[i] = `"${value.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
    else parts[i] = `"${value}"`;
  }
  return `{${parts.join(',')}}`;
}

/** The delta parameters: slots once each, deltas by position (a delta of no generation here is dropped). */
function deltaParameters(generations: readonly GenerationRecord[], deltas: readonly SpendDelta[]): string[] {
  const position = new Map<string, number>();
  generations.forEach((g, i) => {
    if (!position.has(g.id)) position.set(g.id, i + 1);
  });
  const slots = new Map<string, Map<string, number>>();
  const slotList: { account: string; window: string }[] = [];
  const kept: { generation: number; slot: number; delta: SpendDelta }[] = [];
  for (const delta of deltas) {
    const generation = position.get(delta.generationId);
    if (generation === undefined) continue;
    let byWindow = slots.get(delta.account);
    if (byWindow === undefined) {
      byWindow = new Map();
      slots.set(delta.account, byWindow);
    }
    let slot = byWindow.get(delta.window);
    if (slot === undefined) {
      slotList.push({ account: delta.account, window: delta.window });
      slot = slotList.length;
      byWindow.set(delta.window, slot);
    }
    kept.push({ generation, slot, delta });
  }
  return [
    arrayLiteral(slotList, (s) => s.account),
    arrayLiteral(slotList, (s) => s.window),
    arrayLiteral(kept, (k) => k.generation),
    arrayLiteral(kept, (k) => k.slot),
    arrayLiteral(kept, (k) => k.delta.amountUsd),
    arrayLiteral(kept, (k) => k.delta.byokUsd),
  ];
}

/**
 * Ledger batches on PostgreSQL as one fixed-text statement (see WRITE_BATCH). Works over the
 * store's Kysely or a transaction of it.
 */
export function postgresBatchWriter<DB>(db: Kysely<DB>, options: { rollups?: RollupLevels } = {}): BatchWriter {
  const statement = writeBatchSql(options.rollups ?? 'hourly+daily');
  return async (generations, deltas) => {
    if (generations.length === 0 && deltas.length === 0) return;
    const rows = generations.map(toRow);
    const parameters = GENERATION_COLUMNS.map((column) => arrayLiteral(rows, (row) => row[column]));
    parameters.push(...deltaParameters(generations, deltas));
    await db.executeQuery(CompiledQuery.raw(statement, parameters));
  };
}
