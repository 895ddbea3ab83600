import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Migrator, type Kysely } from 'kysely';
import { openStore } from '../../src/store/index.js';
import { migrationProvider } from '../../src/store/migrations/index.js';
import { openPostgres } from '../../src/store/postgres/connect.js';
import type { Database } from '../../src/store/schema.js';
import type { UsageRollupsTable } from '../../src/store/schema-console.js';
import { openSqlite } from '../../src/store/sqlite/connect.js';
import { generation } from '../accounting/fixtures.js';
import { MutableClock } from '../support/clock.js';
import { assertSameSums, dailyRollups, hourlyRollupsByDay, type Sums } from '../support/rollups.js';
import { call, dialects, startTestServer, testDatabase, type TestDialect, type TestServer } from '../support/server.js';

/** A second connection to a test database, to read the rollup tables directly. */
function connect(dialect: TestDialect, url: string): Kysely<Database> {
  return dialect === 'sqlite' ? openSqlite(url, { checkpointWorker: false }).db : openPostgres(url).db;
}

interface Usage {
  data: { buckets: string[]; series: { requests: number[] }[]; totals: { requests: number } };
}
const inBucket = (usage: Usage, i: number) => usage.data.series.reduce((n, s) => n + (s.requests[i] ?? 0), 0);

for (const dialect of dialects()) {
  describe(`daily usage rollups after real calls (${dialect})`, () => {
    let server: TestServer;
    let db: Kysely<Database>;
    // Calls late on one UTC day and in the current hour of the next: the reads must include today.
    const clock = new MutableClock('2026-11-23T22:40:00.000Z');

    before(async () => {
      server = await startTestServer({ dialect, clock });
      const keys: string[] = [];
      for (const name of ['alpha', 'beta']) {
        const res = await call<{ key: string }>(server, 'POST', '/keys', {
          token: server.managementToken,
          body: { name },
        });
        keys.push(res.body.key);
      }
      const [alpha = '', beta = ''] = keys;
      const chat = async (key: string, model: string) => {
        const body = { model, messages: [{ role: 'user', content: `hello from ${model}` }] };
        assert.equal((await call(server, 'POST', '/chat/completions', { token: key, body })).status, 200);
      };
      for (let i = 0; i < 3; i++) await chat(alpha, 'demo/echo');
      clock.advance(3_600_000);
      for (let i = 0; i < 2; i++) await chat(beta, 'demo/fast');
      clock.advance(3_600_000);
      await chat(alpha, 'demo/fast');
      await chat(alpha, 'demo/fast');
      await chat(beta, 'demo/echo');
      await server.running.services.meter.flush();
      db = connect(dialect, server.db.url);
    });
    after(async () => {
      await db.destroy();
      await server.close();
    });

    it('hold the hourly rollups summed per day, and the month reads count today', async () => {
      const daily = await dailyRollups(db);
      assertSameSums(daily, await hourlyRollupsByDay(db));
      const perDay = (day: string) =>
        [...daily].filter(([id]) => id.startsWith(day)).reduce((n, [, s]) => n + s.requests, 0);
      assert.equal(perDay('2026-11-23'), 5);
      assert.equal(perDay('2026-11-24'), 3);

      const token = server.managementToken;
      const month = await call<Usage>(server, 'GET', '/analytics/usage?range=30d&group_by=model', { token });
      assert.equal(month.status, 200);
      assert.equal(month.body.data.buckets[29], '2026-11-24T00:00:00.000Z');
      assert.equal(inBucket(month.body, 28), 5);
      assert.equal(inBucket(month.body, 29), 3);
      const day = await call<Usage>(server, 'GET', '/analytics/usage?range=24h', { token });
      assert.equal(day.body.data.buckets[23], '2026-11-24T00:00:00.000Z');
      assert.equal(inBucket(day.body, 23), 3);
      assert.equal(day.body.data.totals.requests, 8);
      const activity = await call<{ data: { date: string; requests: number }[] }>(server, 'GET', '/activity', {
        token,
      });
      assert.deepEqual([...new Set(activity.body.data.map((r) => r.date))], ['2026-11-23']);
      assert.equal(
        activity.body.data.reduce((n, r) => n + r.requests, 0),
        5,
      );
    });
  });

  describe(`migration 010 fills the daily rollups from the hourly ones (${dialect})`, () => {
    it('sums every hour of a day into its row, then the writers add to those rows', async () => {
      const target = await testDatabase(dialect);
      const db = connect(dialect, target.url);
      try {
        const migrated = await new Migrator({ db, provider: migrationProvider }).migrateTo('009-rate-limits');
        assert.equal(migrated.error, undefined);
        const row = (hour: string, key: string, model: string, n: number) => ({
          hour,
          key_hash: key,
          workspace_id: 'ws',
          model,
          provider_id: 'demo',
          upstream_model: model.slice(5),
          requests: n,
          errors: n % 2,
          cancelled: n % 3,
          flagged: 1,
          // Beyond 32 bits: the daily sums are bigint as the hourly ones.
          prompt_tokens: 3_000_000_000 + n,
          completion_tokens: 7 * n,
          reasoning_tokens: n,
          cost_usd: 0.1 * n,
          generation_time_ms: 250.5 * n,
        });
        const hourly = [
          row('2026-11-20T00', 'k1', 'demo/echo', 1),
          row('2026-11-20T13', 'k1', 'demo/echo', 2),
          row('2026-11-20T23', 'k1', 'demo/echo', 4),
          row('2026-11-20T23', 'k2', 'demo/echo', 8),
          row('2026-11-20T23', 'k1', 'demo/fast', 16),
          row('2026-11-21T00', 'k1', 'demo/echo', 32),
        ];
        // The table as migration 009 left it (later migrations add columns with defaults).
        const before009 = db as unknown as Kysely<{ usage_rollups: Omit<UsageRollupsTable, 'refused'> }>;
        await before009.insertInto('usage_rollups').values(hourly).execute();
        const expected = new Map<string, Sums>([
          ['2026-11-20 | k1 | ws | demo/echo | demo | echo', sums([1, 2, 4])],
          ['2026-11-20 | k2 | ws | demo/echo | demo | echo', sums([8])],
          ['2026-11-20 | k1 | ws | demo/fast | demo | fast', sums([16])],
          ['2026-11-21 | k1 | ws | demo/echo | demo | echo', sums([32])],
        ]);

        const store = openStore(target.url, { checkpointWorker: false });
        try {
          const applied = await store.migrate();
          assert.equal(applied[0], '010-daily-rollups', applied.join(', '));
          assertSameSums(await dailyRollups(db), expected);
          const more = generation({
            keyHash: 'k1',
            workspaceId: 'ws',
            model: 'demo/echo',
            providerId: 'demo',
            upstreamModel: 'echo',
            createdAt: '2026-11-20T18:00:00.000Z',
          });
          await store.ledger.writeBatch([more], []);
          const daily = await dailyRollups(db);
          assert.equal(daily.get('2026-11-20 | k1 | ws | demo/echo | demo | echo')?.requests, 8);
          assertSameSums(daily, await hourlyRollupsByDay(db));
        } finally {
          await store.close();
        }
      } finally {
        await db.destroy();
        await target.dispose();
      }
    });
  });
}

/** What the hourly rows made by `row(…, n)` for these n sum to. */
function sums(ns: number[]): Sums {
  const total = (f: (n: number) => number) => ns.reduce((a, n) => a + f(n), 0);
  return {
    requests: total((n) => n),
    errors: total((n) => n % 2),
    cancelled: total((n) => n % 3),
    flagged: ns.length,
    refused: 0,
    prompt_tokens: total((n) => 3_000_000_000 + n),
    completion_tokens: total((n) => 7 * n),
    reasoning_tokens: total((n) => n),
    cost_usd: total((n) => 0.1 * n),
    generation_time_ms: total((n) => 250.5 * n),
  };
}
