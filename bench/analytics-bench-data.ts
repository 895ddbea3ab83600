// The analytics benchmark's data (bench/analytics-bench.ts): generation records for the write
// path, and a big ledger over the last 30 days generated with bulk SQL, with its rollups.
import { sql, type Kysely } from 'kysely';
import type { GenerationRecord } from '../src/domain/accounting/types.js';
import type { BatchWriter } from '../src/store/repositories/ledger-rows.js';
import type { Database } from '../src/store/schema.js';

/** The indexes migration 008 adds to `generations` (plus the key index of 002), as DDL. */
export const INDEXES = [
  'CREATE INDEX generations_key_created ON generations (key_hash, created_at)',
  'CREATE INDEX generations_created ON generations (created_at, id)',
  'CREATE INDEX generations_model_created ON generations (model, created_at, id)',
  'CREATE INDEX generations_provider_created ON generations (provider_id, created_at, id)',
  'CREATE INDEX generations_workspace_created ON generations (workspace_id, created_at, id)',
  "CREATE INDEX generations_flagged_created ON generations (created_at, id) WHERE flags <> '[]'",
  "CREATE INDEX generations_failed_created ON generations (created_at, id) WHERE finish_reason = 'error'",
];
export const indexName = (ddl: string): string => ddl.split(' ')[2] ?? '';

export const run = (db: Kysely<Database>, text: string) => sql.raw(text).execute(db);

let serial = 0;
function record(now: number): GenerationRecord {
  serial += 1;
  const i = serial;
  const model = i % 12;
  return {
    id: `gen-w${String(i).padStart(10, '0')}`,
    requestId: `req_${i}`,
    keyHash: `key${String(i % 100).padStart(3, '0')}`,
    workspaceId: `ws${i % 4}`,
    creatorUserId: 'user',
    model: `vendor/model-${String(model).padStart(2, '0')}`,
    providerId: `prov-${i % 2}`,
    upstreamModel: `up-${String(model).padStart(2, '0')}`,
    upstreamId: null,
    apiType: 'completions',
    streamed: i % 2 === 0,
    cancelled: false,
    finishReason: i % 50 === 0 ? 'error' : 'stop',
    nativeFinishReason: null,
    promptTokens: 100 + (i % 900),
    completionTokens: 50 + (i % 400),
    reasoningTokens: 0,
    cachedTokens: 0,
    usageEstimated: false,
    promptCostUsd: 0.0001,
    completionCostUsd: 0.0002,
    costUsd: 0.0003,
    latencyMs: 200 + (i % 800),
    generationTimeMs: 500 + (i % 3000),
    presetId: null,
    presetVersion: null,
    flags: i % 100 === 3 ? ['regex-prompt-injection'] : [],
    attempts: [{ provider: `prov-${i % 2}`, model: `up-${String(model).padStart(2, '0')}`, status: 200 }],
    createdAt: new Date(now - (i % 3600) * 1000).toISOString(),
  };
}

/** µs per generation written, batches of 200 with their spend deltas (key and member accounts). */
export async function writeCost(writer: BatchWriter, batches: number): Promise<number> {
  const now = Date.now();
  const start = performance.now();
  for (let b = 0; b < batches; b++) {
    const generations = Array.from({ length: 200 }, () => record(now));
    const deltas = generations.flatMap((g) =>
      ['lifetime', 'day:2026-11-24'].flatMap((window) => [
        { generationId: g.id, account: g.keyHash, window, amountUsd: g.costUsd, byokUsd: 0 },
        { generationId: g.id, account: 'member:user', window, amountUsd: g.costUsd, byokUsd: 0 },
      ]),
    );
    await writer(generations, deltas);
  }
  return ((performance.now() - start) * 1000) / (batches * 200);
}

const SUMS =
  'requests, errors, cancelled, flagged, prompt_tokens, completion_tokens, reasoning_tokens, cost_usd, generation_time_ms';

/**
 * `rows` generations evenly over the last 30 days (100 keys, 4 workspaces, 12 models on 2
 * providers, 2% errors, 1% flagged), then their hourly rollups and, from those, the daily ones
 * (as migration 010 fills them).
 */
export async function bulkGenerate(db: Kysely<Database>, dialect: 'sqlite' | 'postgres', rows: number): Promise<void> {
  const end = Math.floor(Date.now() / 1000) - 60;
  const step = (30 * 86_400) / rows;
  const start = end - rows * step;
  const columns =
    'id, request_id, key_hash, workspace_id, creator_user_id, model, provider_id, upstream_model, upstream_id, api_type, ' +
    'streamed, cancelled, finish_reason, native_finish_reason, prompt_tokens, completion_tokens, reasoning_tokens, ' +
    'cached_tokens, usage_estimated, prompt_cost_usd, completion_cost_usd, cost_usd, latency_ms, generation_time_ms, ' +
    'preset_id, preset_version, flags, attempts, created_at';
  const body = (id: string, key: string, ws: string, model: string, up: string, prov: string, at: string) =>
    `SELECT ${id}, 'req', ${key}, ${ws}, 'user', ${model}, ${prov}, ${up}, NULL, 'completions', i % 2, ` +
    `CASE WHEN i % 97 = 0 THEN 1 ELSE 0 END, CASE WHEN i % 50 = 0 THEN 'error' ELSE 'stop' END, NULL, ` +
    `100 + i % 900, 50 + i % 400, 0, 0, 0, 0.0001, 0.0002, 0.0003, 200 + i % 800, 500 + i % 3000, NULL, NULL, ` +
    `CASE WHEN i % 100 = 3 THEN '["regex-prompt-injection"]' ELSE '[]' END, '[]', ${at}`;
  if (dialect === 'sqlite') {
    await run(
      db,
      `WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < ${rows - 1}) ` +
        `INSERT INTO generations (${columns}) ` +
        body(
          "printf('gen-%010d', i)",
          "printf('key%03d', i % 100)",
          "printf('ws%d', i % 4)",
          "printf('vendor/model-%02d', (i * 7) % 12)",
          "printf('up-%02d', (i * 7) % 12)",
          "printf('prov-%d', i % 2)",
          `strftime('%Y-%m-%dT%H:%M:%fZ', ${start} + i * ${step}, 'unixepoch')`,
        ) +
        ' FROM n',
    );
  } else {
    await run(db, "SET maintenance_work_mem = '256MB'");
    await run(
      db,
      `INSERT INTO generations (${columns}) ` +
        body(
          "'gen-' || lpad(i::text, 10, '0')",
          "'key' || lpad((i % 100)::text, 3, '0')",
          "'ws' || (i % 4)",
          "'vendor/model-' || lpad(((i * 7) % 12)::text, 2, '0')",
          "'up-' || lpad(((i * 7) % 12)::text, 2, '0')",
          "'prov-' || (i % 2)",
          `to_char(to_timestamp(${start} + i * ${step}) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`,
        ) +
        ` FROM generate_series(0, ${rows - 1}) AS i`,
    );
  }
  await run(
    db,
    `INSERT INTO usage_rollups (hour, key_hash, workspace_id, model, provider_id, upstream_model, ${SUMS})
     SELECT substr(created_at, 1, 13), key_hash, workspace_id, model, provider_id, upstream_model, count(*),
       sum(CASE WHEN finish_reason = 'error' THEN 1 ELSE 0 END), sum(cancelled),
       sum(CASE WHEN flags <> '[]' THEN 1 ELSE 0 END), sum(prompt_tokens), sum(completion_tokens),
       sum(reasoning_tokens), sum(cost_usd), sum(generation_time_ms)
     FROM generations GROUP BY substr(created_at, 1, 13), key_hash, workspace_id, model, provider_id, upstream_model`,
  );
  await run(
    db,
    `INSERT INTO usage_rollups_daily (day, key_hash, workspace_id, model, provider_id, upstream_model, ${SUMS})
     SELECT substr(hour, 1, 10), key_hash, workspace_id, model, provider_id, upstream_model, ${SUMS.split(', ')
       .map((c) => `sum(${c})`)
       .join(', ')}
     FROM usage_rollups GROUP BY substr(hour, 1, 10), key_hash, workspace_id, model, provider_id, upstream_model`,
  );
}
