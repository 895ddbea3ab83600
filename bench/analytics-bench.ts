// Console analytics on a big ledger, SQLite and PostgreSQL (issue 15).
//
//   npx tsc -p tsconfig.json && node dist/bench/analytics-bench.js [--rows 5000000] [--dialect both|sqlite|postgres]
//
// 1. Write path: ledger batches of 200 generations through the store's own writer, without the
//    hourly rollups and the activity-log indexes (the ledger as it was) and with them, alternated.
// 2. A generated store of `--rows` generation records over the last 30 days (bulk SQL, not the
//    API: 100 keys, 4 workspaces, 12 models on 2 providers, 2% errors, 1% flagged), its rollups,
//    then the console's reads through the analytics service: the overview (24 h and 30 d series
//    and the limits), activity-log pages with each filter and deep in the cursor, `GET /activity`.
// Prints median and slowest of 5 runs after a warm-up. Starts its own PostgreSQL.
import { rmSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { sql, type Kysely } from 'kysely';
import type { GenerationRecord } from '../src/domain/accounting/types.js';
import { AnalyticsService } from '../src/domain/analytics/service.js';
import type { GenerationFilter } from '../src/domain/analytics/types.js';
import { systemClock } from '../src/domain/common/clock.js';
import { defaultCatalog } from '../src/catalog/default-catalog.js';
import { openStore, type Store } from '../src/store/index.js';
import { openPostgres } from '../src/store/postgres/connect.js';
import { postgresBatchWriter } from '../src/store/postgres/ledger-writer.js';
import type { BatchWriter } from '../src/store/repositories/ledger-rows.js';
import { createLedgerRepository } from '../src/store/repositories/ledger.js';
import type { Database } from '../src/store/schema.js';
import { openSqlite } from '../src/store/sqlite/connect.js';
import { sqliteBatchWriter } from '../src/store/sqlite/ledger-writer.js';
import { createDatabase, startPostgres } from '../test/harness/postgres.js';

const { values } = parseArgs({
  options: { rows: { type: 'string', default: '5000000' }, dialect: { type: 'string', default: 'both' } },
});
const ROWS = Number(values.rows);
const DIALECTS =
  values.dialect === 'both' ? (['sqlite', 'postgres'] as const) : [values.dialect as 'sqlite' | 'postgres'];

/** The indexes migration 008 adds to `generations` (plus the key index of 002), as DDL. */
const INDEXES = [
  'CREATE INDEX generations_key_created ON generations (key_hash, created_at)',
  'CREATE INDEX generations_created ON generations (created_at, id)',
  'CREATE INDEX generations_model_created ON generations (model, created_at, id)',
  'CREATE INDEX generations_provider_created ON generations (provider_id, created_at, id)',
  'CREATE INDEX generations_workspace_created ON generations (workspace_id, created_at, id)',
  "CREATE INDEX generations_flagged_created ON generations (created_at, id) WHERE flags <> '[]'",
  "CREATE INDEX generations_failed_created ON generations (created_at, id) WHERE finish_reason = 'error'",
];
const NEW_INDEXES = INDEXES.slice(1);
const indexName = (ddl: string): string => ddl.split(' ')[2] ?? '';

const run = (db: Kysely<Database>, text: string) => sql.raw(text).execute(db);

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

async function time<T>(label: string, fn: () => Promise<T>, results: string[]): Promise<void> {
  await fn();
  const samples: number[] = [];
  for (let i = 0; i < 5; i++) {
    const start = performance.now();
    await fn();
    samples.push(performance.now() - start);
  }
  const line = `| ${label} | ${median(samples).toFixed(1)} | ${Math.max(...samples).toFixed(1)} |`;
  results.push(line);
  console.log(line);
}

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
async function writeCost(writer: BatchWriter, batches: number): Promise<number> {
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

async function bulkGenerate(db: Kysely<Database>, dialect: 'sqlite' | 'postgres', rows: number): Promise<void> {
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
    `INSERT INTO usage_rollups (hour, key_hash, workspace_id, model, provider_id, upstream_model, requests, errors,
       cancelled, flagged, prompt_tokens, completion_tokens, reasoning_tokens, cost_usd, generation_time_ms)
     SELECT substr(created_at, 1, 13), key_hash, workspace_id, model, provider_id, upstream_model, count(*),
       sum(CASE WHEN finish_reason = 'error' THEN 1 ELSE 0 END), sum(cancelled),
       sum(CASE WHEN flags <> '[]' THEN 1 ELSE 0 END), sum(prompt_tokens), sum(completion_tokens),
       sum(reasoning_tokens), sum(cost_usd), sum(generation_time_ms)
     FROM generations GROUP BY substr(created_at, 1, 13), key_hash, workspace_id, model, provider_id, upstream_model`,
  );
}

async function benchDialect(dialect: 'sqlite' | 'postgres', url: string): Promise<string[]> {
  const results: string[] = [`### ${dialect}, ${ROWS.toLocaleString('en')} generations`, ''];
  const store: Store = openStore(url, { checkpointWorker: false });
  await store.migrate();
  const conn = dialect === 'sqlite' ? openSqlite(url) : null;
  const pgDb = dialect === 'postgres' ? openPostgres(url).db : null;
  const db = (conn?.db ?? pgDb) as Kysely<Database>;
  const writer = (rollups: boolean): BatchWriter =>
    conn !== null ? sqliteBatchWriter(conn.raw, conn.db, { rollups }) : postgresBatchWriter(db, { rollups });

  // 1. Write path, alternating so that machine noise hits both alike.
  const before: number[] = [];
  const after: number[] = [];
  for (let round = 0; round < 3; round++) {
    for (const ddl of NEW_INDEXES) await run(db, `DROP INDEX IF EXISTS ${indexName(ddl)}`);
    before.push(await writeCost(writer(false), 25));
    for (const ddl of NEW_INDEXES) await run(db, ddl);
    after.push(await writeCost(writer(true), 25));
  }
  results.push('| ledger write path | µs per generation (median of 3 × 5,000) |', '|---|---|');
  results.push(`| generations + spend counters (before) | ${median(before).toFixed(1)} |`);
  results.push(`| + hourly rollups and the activity-log indexes | ${median(after).toFixed(1)} |`, '');
  console.log(results.slice(-5).join('\n'));
  for (const table of ['generations', 'usage_rollups', 'spend_counters']) await run(db, `DELETE FROM ${table}`);

  // 2. The big store: rows without indexes, then the indexes (faster than maintaining them per row).
  for (const ddl of INDEXES) await run(db, `DROP INDEX IF EXISTS ${indexName(ddl)}`);
  const t = performance.now();
  await bulkGenerate(db, dialect, ROWS);
  for (const ddl of INDEXES) await run(db, ddl);
  await run(db, dialect === 'sqlite' ? 'ANALYZE' : 'VACUUM ANALYZE');
  console.log(`generated ${ROWS} rows and their rollups in ${((performance.now() - t) / 1000).toFixed(0)} s`);
  const rollupRows = await sql<{ n: number | string }>`SELECT count(*) AS n FROM usage_rollups`.execute(db);
  results.push(`rollup rows: ${Number(rollupRows.rows[0]?.n ?? 0).toLocaleString('en')}`, '');

  const analytics = new AnalyticsService({
    analytics: store.analytics,
    ledger: createLedgerRepository(db),
    usage: {
      read: (hashes) =>
        Promise.resolve(
          new Map(
            hashes.map((h) => [
              h,
              {
                usage: 0,
                usageDaily: 0,
                usageWeekly: 0,
                usageMonthly: 0,
                byokUsage: 0,
                byokUsageDaily: 0,
                byokUsageWeekly: 0,
                byokUsageMonthly: 0,
              },
            ]),
          ),
        ),
    },
    catalog: defaultCatalog(),
    health: { snapshot: () => [] },
    clock: systemClock,
  });
  results.push('| read | median ms | slowest ms |', '|---|---|---|');
  await time(
    'overview (24 h + 30 d by model, limits)',
    async () => {
      await analytics.usage('24h', 'model', 10);
      await analytics.usage('30d', 'model', 10);
      await analytics.limits(10);
    },
    results,
  );
  await time('usage 30 d by key', () => analytics.usage('30d', 'key', 10), results);
  const page = (filter: GenerationFilter) => () => analytics.generations(filter, undefined, 50);
  await time('activity page, no filter', page({}), results);
  await time('activity page, one key', page({ keyHash: 'key042' }), results);
  await time('activity page, one model', page({ model: 'vendor/model-05' }), results);
  await time('activity page, flagged', page({ flagged: true }), results);
  await time('activity page, errors', page({ status: 'error' }), results);
  await time(
    'activity page, key + model + last 24 h',
    page({ keyHash: 'key007', model: 'vendor/model-01', from: new Date(Date.now() - 86_400_000).toISOString() }),
    results,
  );
  let cursor: string | undefined;
  for (let i = 0; i < 20; i++) cursor = (await analytics.generations({}, cursor, 50)).nextCursor ?? undefined;
  await time('activity page 21 (cursor)', () => analytics.generations({}, cursor, 50), results);
  await time('GET /activity (30 days)', () => analytics.activity({}), results);
  await time('GET /activity (one key)', () => analytics.activity({ keyHash: 'key042' }), results);
  results.push('');
  if (conn !== null) await conn.db.destroy();
  if (pgDb !== null) await pgDb.destroy();
  await store.close();
  return results;
}

const out: string[] = [];
for (const dialect of DIALECTS) {
  if (dialect === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'analytics-bench-'));
    try {
      out.push(...(await benchDialect('sqlite', `sqlite:${join(dir, 'bench.db')}`)));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  } else {
    const pg = await startPostgres();
    try {
      out.push(...(await benchDialect('postgres', await createDatabase(pg.url, 'analytics_bench'))));
    } finally {
      await pg.stop();
    }
  }
}
console.log(`\n${out.join('\n')}`);
