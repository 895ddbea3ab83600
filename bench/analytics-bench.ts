// Console analytics on a big ledger, SQLite and PostgreSQL (issue 15).
//
//   npx tsc -p tsconfig.json && node dist/bench/analytics-bench.js [--rows 5000000] [--dialect both|sqlite|postgres] [--explain]
//
// 1. Write path: ledger batches of 200 generations through the store's own writer, alternated:
//    without rollups and the activity-log indexes (the ledger as it was first), with the hourly
//    rollups and the indexes, and with the hourly and daily rollups and the indexes (today's).
// 2. A generated store of `--rows` generation records over the last 30 days (bulk SQL, not the
//    API; bench/analytics-bench-data.ts), its rollups, then the console's reads through the
//    analytics service: the overview (24 h and 30 d series and the limits), `GET /activity` and
//    usage by key over 30 days, each read from the daily rollups and (the baseline, same run)
//    from the hourly ones; then activity-log pages with each filter and deep in the cursor.
// Prints median and slowest of 5 runs after a warm-up. `--explain` prints every read's query plan.
// Starts its own PostgreSQL.
import { rmSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { sql, type Kysely } from 'kysely';
import { AnalyticsService } from '../src/domain/analytics/service.js';
import type { AnalyticsRepository, GenerationFilter } from '../src/domain/analytics/types.js';
import { systemClock } from '../src/domain/common/clock.js';
import { defaultCatalog } from '../src/catalog/default-catalog.js';
import { openStore, type Store } from '../src/store/index.js';
import { openPostgres } from '../src/store/postgres/connect.js';
import { postgresBatchWriter } from '../src/store/postgres/ledger-writer.js';
import { createAnalyticsRepository } from '../src/store/repositories/analytics.js';
import type { BatchWriter } from '../src/store/repositories/ledger-rows.js';
import { createLedgerRepository } from '../src/store/repositories/ledger.js';
import type { RollupLevels } from '../src/store/repositories/rollup-rows.js';
import type { Database } from '../src/store/schema.js';
import { openSqlite } from '../src/store/sqlite/connect.js';
import { sqliteBatchWriter } from '../src/store/sqlite/ledger-writer.js';
import { createDatabase, startPostgres } from '../test/harness/postgres.js';
import { bulkGenerate, INDEXES, indexName, run, writeCost } from './analytics-bench-data.js';
import { hourlyMonthReads } from './analytics-bench-hourly.js';
import { explainAll, QueryCapture } from './analytics-explain.js';

const { values } = parseArgs({
  options: {
    rows: { type: 'string', default: '5000000' },
    dialect: { type: 'string', default: 'both' },
    explain: { type: 'boolean', default: false },
  },
});
const ROWS = Number(values.rows);
const DIALECTS =
  values.dialect === 'both' ? (['sqlite', 'postgres'] as const) : [values.dialect as 'sqlite' | 'postgres'];
const NEW_INDEXES = INDEXES.slice(1);
/** Write-path rounds: each writes 5,000 generations per rollup level. */
const ROUNDS = 5;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

const figure = (samples: number[]): string => `${median(samples).toFixed(1)} / ${Math.max(...samples).toFixed(1)}`;

/** Median and slowest of 5 runs after a warm-up; with a baseline, the two alternate run by run. */
async function time(
  label: string,
  fn: () => Promise<unknown>,
  results: string[],
  baseline?: () => Promise<unknown>,
): Promise<void> {
  await fn();
  await baseline?.();
  const samples: number[] = [];
  const base: number[] = [];
  for (let i = 0; i < 5; i++) {
    if (baseline !== undefined) {
      const start = performance.now();
      await baseline();
      base.push(performance.now() - start);
    }
    const start = performance.now();
    await fn();
    samples.push(performance.now() - start);
  }
  const line =
    baseline === undefined
      ? `| ${label} | ${figure(samples)} |`
      : `| ${label} | ${figure(base)} | ${figure(samples)} |`;
  results.push(line);
  console.log(line);
}

/** µs per generation for each rollup level, alternating rounds so that machine noise hits all alike. */
async function writePath(db: Kysely<Database>, writer: (rollups: RollupLevels) => BatchWriter, results: string[]) {
  const levels: RollupLevels[] = ['none', 'hourly', 'hourly+daily'];
  const cost = new Map<RollupLevels, number[]>(levels.map((l) => [l, []]));
  for (let round = 0; round < ROUNDS; round++) {
    for (const level of levels) {
      for (const ddl of NEW_INDEXES)
        await run(
          db,
          level === 'none' ? `DROP INDEX IF EXISTS ${indexName(ddl)}` : ddl.replace('INDEX', 'INDEX IF NOT EXISTS'),
        );
      cost.get(level)?.push(await writeCost(writer(level), 25));
    }
  }
  const us = (level: RollupLevels) => median(cost.get(level) ?? []);
  const relative = (level: RollupLevels, to: RollupLevels) => {
    const percent = Math.round((us(level) / us(to) - 1) * 100);
    return `${percent >= 0 ? '+' : ''}${percent}%`;
  };
  results.push(
    `| ledger write path | µs per generation (median of ${ROUNDS} × 5,000) |`,
    '|---|---|',
    `| generations + spend counters | ${us('none').toFixed(1)} |`,
    `| + hourly rollups and the activity-log indexes | ${us('hourly').toFixed(1)} (${relative('hourly', 'none')}) |`,
    `| + daily rollups (today's write path) | ${us('hourly+daily').toFixed(1)} (${relative('hourly+daily', 'hourly')} on the line above) |`,
    '',
  );
  console.log(results.slice(-6).join('\n'));
}

function serviceOver(analytics: AnalyticsRepository, db: Kysely<Database>): AnalyticsService {
  const zero = { usage: 0, usageDaily: 0, usageWeekly: 0, usageMonthly: 0 };
  const byok = { byokUsage: 0, byokUsageDaily: 0, byokUsageWeekly: 0, byokUsageMonthly: 0 };
  return new AnalyticsService({
    analytics,
    ledger: createLedgerRepository(db),
    usage: { read: (hashes) => Promise.resolve(new Map(hashes.map((h) => [h, { ...zero, ...byok }]))) },
    catalog: defaultCatalog(),
    health: { snapshot: () => [] },
    clock: systemClock,
  });
}

const overview = (analytics: AnalyticsService) => async () => {
  await analytics.usage('24h', 'model', 10);
  await analytics.usage('30d', 'model', 10);
  await analytics.limits(10);
};

async function reads(store: Store, db: Kysely<Database>, results: string[]): Promise<void> {
  const analytics = serviceOver(store.analytics, db);
  const hourly = serviceOver(hourlyMonthReads(db, store.analytics), db);
  results.push('| month read | hourly rollups (before) median / slowest ms | daily rollups median / slowest ms |');
  results.push('|---|---|---|');
  await time('overview (24 h + 30 d by model, limits)', overview(analytics), results, overview(hourly));
  await time(
    'usage 30 d by key',
    () => analytics.usage('30d', 'key', 10),
    results,
    () => hourly.usage('30d', 'key', 10),
  );
  await time(
    '`GET /activity` (30 days, all keys)',
    () => analytics.activity({}),
    results,
    () => hourly.activity({}),
  );
  const oneKey = { keyHash: 'key042' };
  await time(
    '`GET /activity` (one key)',
    () => analytics.activity(oneKey),
    results,
    () => hourly.activity(oneKey),
  );
  results.push('', '| read | median / slowest ms |', '|---|---|');
  const page = (filter: GenerationFilter) => () => analytics.generations(filter, undefined, 50);
  await time('activity page, no filter', page({}), results);
  await time('activity page, one key', page({ keyHash: 'key042' }), results);
  await time('activity page, one model', page({ model: 'vendor/model-05' }), results);
  await time('activity page, flagged', page({ flagged: true }), results);
  await time('activity page, errors', page({ status: 'error' }), results);
  const from = new Date(Date.now() - 86_400_000).toISOString();
  await time(
    'activity page, key + model + last 24 h',
    page({ keyHash: 'key007', model: 'vendor/model-01', from }),
    results,
  );
  let cursor: string | undefined;
  for (let i = 0; i < 20; i++) cursor = (await analytics.generations({}, cursor, 50)).nextCursor ?? undefined;
  await time('activity page 21 (cursor)', () => analytics.generations({}, cursor, 50), results);
  results.push('');
}

/** Every statement of the overview, `GET /activity` and two activity pages, with its plan. */
async function explain(db: Kysely<Database>, dialect: 'sqlite' | 'postgres'): Promise<void> {
  const capture = new QueryCapture(db);
  const analytics = serviceOver(createAnalyticsRepository(db.withPlugin(capture)), db);
  const plans: string[] = [];
  const explained = async (label: string, fn: () => Promise<unknown>) => {
    capture.queries.length = 0;
    await fn();
    plans.push(...(await explainAll(db, dialect, label, capture.queries)));
  };
  await explained('overview', overview(analytics));
  await explained('usage 30 d by key', () => analytics.usage('30d', 'key', 10));
  await explained('GET /activity', () => analytics.activity({}));
  await explained('GET /activity one key', () => analytics.activity({ keyHash: 'key042' }));
  await explained('activity page, one model', () => analytics.generations({ model: 'vendor/model-05' }, undefined, 50));
  console.log(`\nQuery plans (${dialect}):\n${plans.join('\n')}\n`);
}

async function benchDialect(dialect: 'sqlite' | 'postgres', url: string): Promise<string[]> {
  const results: string[] = [`### ${dialect}, ${ROWS.toLocaleString('en')} generations`, ''];
  const store: Store = openStore(url, { checkpointWorker: false });
  await store.migrate();
  const conn = dialect === 'sqlite' ? openSqlite(url) : null;
  const pgDb = dialect === 'postgres' ? openPostgres(url).db : null;
  const db = (conn?.db ?? pgDb) as Kysely<Database>;
  const writer = (rollups: RollupLevels): BatchWriter =>
    conn !== null ? sqliteBatchWriter(conn.raw, conn.db, { rollups }) : postgresBatchWriter(db, { rollups });

  await writePath(db, writer, results);
  for (const table of ['generations', 'usage_rollups', 'usage_rollups_daily', 'spend_counters'])
    await run(db, `DELETE FROM ${table}`);

  // The big store: rows without indexes, then the indexes (faster than maintaining them per row).
  for (const ddl of INDEXES) await run(db, `DROP INDEX IF EXISTS ${indexName(ddl)}`);
  const t = performance.now();
  await bulkGenerate(db, dialect, ROWS);
  for (const ddl of INDEXES) await run(db, ddl);
  await run(db, dialect === 'sqlite' ? 'ANALYZE' : 'VACUUM ANALYZE');
  console.log(`generated ${ROWS} rows and their rollups in ${((performance.now() - t) / 1000).toFixed(0)} s`);
  const count = async (table: 'usage_rollups' | 'usage_rollups_daily') =>
    Number(
      (await sql<{ n: number | string }>`SELECT count(*) AS n FROM ${sql.table(table)}`.execute(db)).rows[0]?.n ?? 0,
    );
  results.push(
    `rollup rows: ${(await count('usage_rollups')).toLocaleString('en')} hourly, ` +
      `${(await count('usage_rollups_daily')).toLocaleString('en')} daily`,
    '',
  );

  await reads(store, db, results);
  if (values.explain) await explain(db, dialect);
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
