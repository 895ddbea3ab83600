import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { RetentionPruner, type RetentionPolicy } from '../../src/domain/retention/pruner.js';
import { openStore, type Store } from '../../src/store/index.js';
import { generation } from '../accounting/fixtures.js';
import { MutableClock } from '../support/clock.js';
import { dialects, startTestServer, testDatabase, type TestDatabase } from '../support/server.js';

const NOW = '2026-11-26T12:30:00.000Z';
const DAY_MS = 86_400_000;
const daysAgo = (days: number, plusMs = 0) => new Date(Date.parse(NOW) - days * DAY_MS + plusMs).toISOString();

/** Generations on four days: 50 and 20 days old (over the retention), 5 days and an hour old (kept). */
const AGES = [50, 20, 5, 0.04];
const PER_AGE = 23;

async function seed(store: Store): Promise<void> {
  const rows = AGES.flatMap((age) =>
    Array.from({ length: PER_AGE }, (_, i) =>
      generation({ createdAt: daysAgo(age, i * 1000), keyHash: `k${i % 3}`.padEnd(64, '0'), model: `m/${i % 2}` }),
    ),
  );
  // A refusal row summing many calls is pruned like any generation.
  rows.push(
    generation({
      createdAt: daysAgo(20),
      finishReason: 'error',
      refusal: { status: 402, code: 'payment_required', message: 'limit', details: {}, count: 40 },
    }),
  );
  for (let i = 0; i < rows.length; i += 50) await store.ledger.writeBatch(rows.slice(i, i + 50), []);
}

interface Counts {
  generations: number;
  hourly: string[];
  daily: string[];
}

async function counts(store: Store): Promise<Counts> {
  const page = await store.analytics.listGenerations({}, null, 10_000);
  const hourly = await store.analytics.usage({
    bucket: 'hour',
    from: '2000-01-01T00',
    to: '2100-01-01T00',
    groupBy: 'none',
  });
  const daily = await store.analytics.usage({ bucket: 'day', from: '2000-01-01', to: '2100-01-01', groupBy: 'none' });
  return {
    generations: page.length,
    hourly: hourly.map((p) => p.bucket.slice(0, 10)).sort(),
    daily: daily.map((p) => p.bucket).sort(),
  };
}

const policy: RetentionPolicy = { generationsDays: 10, rollupsDays: 40, batchSize: 7 };

for (const dialect of dialects()) {
  describe(`retention pruning (${dialect})`, () => {
    let db: TestDatabase;
    let stores: Store[] = [];
    const clock = new MutableClock(NOW);
    const pruner = (store: Store, holder: string, p: RetentionPolicy = policy) =>
      new RetentionPruner({ repository: store.retention, clock, policy: p, holder, pauseMs: 1 });

    before(async () => {
      db = await testDatabase(dialect);
      // Two stores over one database: two replicas' connections.
      stores = [openStore(db.url, { checkpointWorker: false }), openStore(db.url, { checkpointWorker: false })];
      await stores[0]?.migrate();
    });
    after(async () => {
      for (const s of stores) await s.close();
      await db.dispose();
    });

    it('prunes old generations and rollups in small batches, keeps recent ones, once with two pruners at once', async () => {
      const [a, b] = stores;
      assert.ok(a && b);
      await seed(a);
      const seeded = await counts(a);
      assert.equal(seeded.generations, AGES.length * PER_AGE + 1);
      const reports = await Promise.all([pruner(a, 'replica-a').runOnce(), pruner(b, 'replica-b').runOnce()]);
      const ran = reports.filter((r) => r !== null);
      assert.equal(ran.length, 1, 'one pruner holds the lease, the other does nothing');
      const report = ran[0];
      assert.ok(report);
      assert.equal(report.generations, 2 * PER_AGE + 1, 'the 50- and 20-day-old generations, each once');
      assert.ok(report.batches >= Math.ceil(report.generations / policy.batchSize), 'batches of at most 7');
      assert.ok(report.hourlyRollups > 0 && report.dailyRollups > 0);

      const left = await counts(a);
      assert.equal(left.generations, 2 * PER_AGE);
      // Rollups keep 40 days: the 20-day-old ones stay, the 50-day-old ones go.
      const days = (list: string[]) => [...new Set(list)];
      assert.deepEqual(days(left.daily), [daysAgo(20).slice(0, 10), daysAgo(5).slice(0, 10), NOW.slice(0, 10)]);
      assert.deepEqual(days(left.hourly), days(left.daily));

      const again = await pruner(b, 'replica-b').runOnce();
      assert.deepEqual(again, { generations: 0, hourlyRollups: 0, dailyRollups: 0, batches: 3 });
    });

    it('leaves the work to the replica holding the lease until it expires', async () => {
      const [a, b] = stores;
      assert.ok(a && b);
      const now = clock.now().getTime();
      assert.equal(
        await a.retention.acquireLease('retention', 'replica-x', new Date(now).toISOString(), daysAgo(0, 60_000)),
        true,
      );
      await a.ledger.writeBatch([generation({ createdAt: daysAgo(30) })], []);
      assert.equal(await pruner(b, 'replica-b').runOnce(), null);
      clock.advance(61_000);
      const report = await pruner(b, 'replica-b').runOnce();
      assert.equal(report?.generations, 1, 'the dead holder’s lease expired: another replica prunes');
      clock.set(NOW);
    });

    it('keeps rollups beyond the generations when only the generations have a retention', async () => {
      const [a] = stores;
      assert.ok(a);
      await a.ledger.writeBatch([generation({ createdAt: daysAgo(300) })], []);
      const report = await pruner(a, 'replica-a', { generationsDays: 10, rollupsDays: null, batchSize: 100 }).runOnce();
      assert.equal(report?.generations, 1);
      assert.equal(report?.hourlyRollups, 0);
      assert.ok((await counts(a)).daily.includes(daysAgo(300).slice(0, 10)));
    });
  });

  describe(`the server prunes in the background (${dialect})`, () => {
    it('with SWITCHYARD_RETENTION_DAYS and SWITCHYARD_ROLLUP_RETENTION_DAYS set', async () => {
      const clock = new MutableClock(NOW);
      const server = await startTestServer({
        dialect,
        clock,
        env: {
          SWITCHYARD_RETENTION_DAYS: '10',
          SWITCHYARD_ROLLUP_RETENTION_DAYS: '40',
          SWITCHYARD_RETENTION_INTERVAL_MS: '1000',
        },
      });
      try {
        const store = server.running.services.store;
        await store.ledger.writeBatch(
          [generation({ createdAt: daysAgo(12) }), generation({ createdAt: daysAgo(1) })],
          [],
        );
        let left = Infinity;
        for (let i = 0; i < 300 && left !== 1; i++) {
          await new Promise((r) => setTimeout(r, 100));
          left = (await store.analytics.listGenerations({}, null, 10)).length;
        }
        assert.equal(left, 1, 'the 12-day-old generation is pruned, the recent one kept');
      } finally {
        await server.close();
      }
    });
  });
}
