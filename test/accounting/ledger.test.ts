import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createMeter } from '../../src/domain/accounting/meter.js';
import type { LedgerRepository, SpendDelta } from '../../src/domain/accounting/types.js';
import { createLedgerRepository } from '../../src/store/repositories/ledger.js';
import { dialects } from '../support/server.js';
import { openAccountingDb, type AccountingDb } from './database.js';
import { apiKey, generation, near } from './fixtures.js';
import { MutableClock } from '../support/clock.js';

const HASH = 'c'.repeat(64);
const OTHER = 'e'.repeat(64);
const W = ['lifetime', 'day:2026-11-21', 'week:2026-11-16', 'month:2026-11'];

const deltas = (generationId: string, keyHash: string, amountUsd: number): SpendDelta[] =>
  W.map((window) => ({ generationId, account: keyHash, window, amountUsd, byokUsd: 0 }));

// Every dialect with both batch writers: the fixed-statement one the store uses, and Kysely's (over transactions).
for (const [dialect, writer] of dialects().flatMap(
  (d) =>
    [
      [d, 'fixed statements'],
      [d, 'kysely'],
    ] as const,
)) {
  describe(`ledger repository (${dialect}, ${writer})`, () => {
    let store: AccountingDb;
    let ledger: LedgerRepository;

    before(async () => {
      store = await openAccountingDb(dialect);
      ledger = createLedgerRepository(store.db, writer === 'kysely' ? undefined : store.writer);
    });
    after(() => store.close());

    it('round-trips every generation field', async () => {
      const g = generation({
        keyHash: HASH,
        upstreamId: null,
        streamed: true,
        cancelled: true,
        finishReason: null,
        nativeFinishReason: 'end_turn',
        reasoningTokens: 7,
        cachedTokens: 3,
        usageEstimated: true,
        promptCostUsd: 0.0000125,
        completionCostUsd: 0.00075,
        costUsd: 0.0007625,
        latencyMs: 12.5,
        generationTimeMs: 987.25,
        presetId: '11111111-1111-4111-8111-111111111111',
        presetVersion: 3,
        flags: ['prompt_injection'],
        attempts: [
          { provider: 'anthropic', model: 'claude-x', status: 529 },
          { provider: 'bedrock', model: 'claude-x', status: null },
          { provider: 'vertex', model: 'claude-x', status: 200 },
        ],
        createdAt: '2026-11-21T12:00:00.123Z',
      });
      await ledger.writeBatch([g], []);
      assert.deepEqual(await ledger.findGeneration(g.id), g);
      assert.equal(await ledger.findGeneration('gen-missing'), null);
    });

    it('round-trips a refusal', async () => {
      const g = generation({
        keyHash: HASH,
        providerId: '',
        upstreamModel: '',
        finishReason: 'error',
        costUsd: 0,
        attempts: [],
        refusal: {
          status: 403,
          code: 'permission_denied',
          message: 'Request blocked by guardrail rule allowed_models',
          details: {
            path: '/api/v1/messages',
            rule: 'allowed_models',
            guardrail_ids: ['g1'],
            limit: 2.5,
            retryable: false,
          },
          count: 7,
        },
      });
      await ledger.writeBatch([g], []);
      assert.deepEqual(await ledger.findGeneration(g.id), g);
    });

    it('stores text exactly, whatever it holds (quotes, backslashes, braces, commas, NULL, blanks, unicode)', async () => {
      const g = generation({
        keyHash: HASH,
        requestId: 'req "quoted" \\ back\\slash, {brace}',
        upstreamId: 'NULL',
        finishReason: '',
        nativeFinishReason: '  padded  ',
        model: 'vendor/modèle-😀',
        flags: ['a "flag"', 'back\\slash', '{x,y}'],
        attempts: [{ provider: 'p"1', model: 'm\\1', status: null }],
      });
      await ledger.writeBatch([g], []);
      assert.deepEqual(await ledger.findGeneration(g.id), g);
    });

    it('drops a delta whose generation is not in the batch', async () => {
      const key = '4'.repeat(64);
      const g = generation({ keyHash: key, costUsd: 0.5 });
      await ledger.writeBatch([g], [...deltas(g.id, key, 0.5), ...deltas('gen-elsewhere', key, 9)]);
      assert.equal((await ledger.spendFor(key, ['lifetime'])).get('lifetime')?.amountUsd, 0.5);
    });

    it('waits for a transaction open on the connection instead of joining it', async () => {
      const key = '3'.repeat(64);
      const g = generation({ keyHash: key, costUsd: 0.5 });
      let written: Promise<void> = Promise.resolve();
      await assert.rejects(
        store.db.transaction().execute(async (trx) => {
          await trx
            .insertInto('spend_counters')
            .values({ account: key, window: 'day:1999-01-01', amount_usd: 1, byok_usd: 0 })
            .execute();
          written = ledger.writeBatch([g], deltas(g.id, key, 0.5));
          await new Promise((resolve) => setTimeout(resolve, 20));
          throw new Error('roll back');
        }),
        /roll back/,
      );
      await written;
      const spend = await ledger.spendFor(key, [...W, 'day:1999-01-01']);
      assert.equal(spend.get('lifetime')?.amountUsd, 0.5);
      assert.equal(spend.has('day:1999-01-01'), false);
    });

    it('adds spend per window across batches and sums repeated (key, window) pairs within one batch', async () => {
      const a = generation({ keyHash: HASH, costUsd: 0.01 });
      const b = generation({ keyHash: HASH, costUsd: 0.02 });
      await ledger.writeBatch([a, b], [...deltas(a.id, HASH, 0.01), ...deltas(b.id, HASH, 0.02)]);
      const c = generation({ keyHash: HASH, costUsd: 0.005 });
      await ledger.writeBatch([c], deltas(c.id, HASH, 0.005));
      const spend = await ledger.spendFor(HASH, W);
      assert.equal(spend.size, 4);
      for (const w of W) assert.ok(near(spend.get(w)?.amountUsd ?? -1, 0.035), `${w}: ${spend.get(w)?.amountUsd}`);
      assert.equal(spend.get('lifetime')?.byokUsd, 0);
      assert.equal((await ledger.spendFor(HASH, ['day:2026-11-22'])).size, 0);
    });

    it('a retried batch (same generation ids) is skipped, spend included', async () => {
      const g = generation({ keyHash: OTHER, costUsd: 0.25 });
      await ledger.writeBatch([g], deltas(g.id, OTHER, 0.25));
      await ledger.writeBatch([g], deltas(g.id, OTHER, 0.25));
      assert.ok(near((await ledger.spendFor(OTHER, ['lifetime'])).get('lifetime')?.amountUsd ?? -1, 0.25));
    });

    it('a partly stored batch adds the spend of its new generations only', async () => {
      const key = '6'.repeat(64);
      const stored = generation({ keyHash: key, costUsd: 0.5 });
      await ledger.writeBatch([stored], deltas(stored.id, key, 0.5));
      const fresh = generation({ keyHash: key, costUsd: 0.25 });
      await ledger.writeBatch([stored, fresh], [...deltas(stored.id, key, 0.5), ...deltas(fresh.id, key, 0.25)]);
      assert.equal((await ledger.spendFor(key, ['lifetime'])).get('lifetime')?.amountUsd, 0.75);
      assert.equal((await ledger.findGeneration(fresh.id))?.costUsd, 0.25);
    });

    it('sums a counter in delta order, exactly as JavaScript adds them', async () => {
      const key = '5'.repeat(64);
      const amounts = [0.1, 0.2, 0.3, 1e-17, 0.7];
      const gens = amounts.map((costUsd) => generation({ keyHash: key, costUsd }));
      await ledger.writeBatch(
        gens,
        gens.flatMap((g) => deltas(g.id, key, g.costUsd)),
      );
      const sum = amounts.reduce((a, b) => a + b);
      await ledger.writeBatch([generation({ keyHash: key })], []);
      const more = generation({ keyHash: key, costUsd: 0.1 });
      await ledger.writeBatch([more], deltas(more.id, key, 0.1));
      for (const spend of (await ledger.spendFor(key, W)).values()) assert.equal(spend.amountUsd, sum + 0.1);
    });

    it('one transaction: a failing row leaves neither generations nor spend behind', async () => {
      const key = 'f'.repeat(64);
      const good = generation({ keyHash: key });
      const bad = generation({ keyHash: key, requestId: null as unknown as string });
      await assert.rejects(ledger.writeBatch([good, bad], [...deltas(good.id, key, 1), ...deltas(bad.id, key, 1)]));
      assert.equal(await ledger.findGeneration(good.id), null);
      assert.equal((await ledger.spendFor(key, W)).size, 0);
    });

    it('usageFor reads many keys and only the asked windows', async () => {
      const usage = await ledger.usageFor([HASH, OTHER, 'nobody'], ['lifetime', 'month:2026-11']);
      assert.equal(usage.get(HASH)?.size, 2);
      assert.deepEqual([...usage.keys()].sort(), [HASH, OTHER].sort());
      assert.ok(near(usage.get(HASH)?.get('month:2026-11')?.amountUsd ?? -1, 0.035));
      assert.ok(near(usage.get(OTHER)?.get('month:2026-11')?.amountUsd ?? -1, 0.25));
      assert.equal(usage.get(HASH)?.has('day:2026-11-21'), false);
      assert.equal((await ledger.usageFor([], W)).size, 0);
    });

    it('concurrent batches on one counter all count', async () => {
      const key = '9'.repeat(64);
      const batches = Array.from({ length: 20 }, () => generation({ keyHash: key, costUsd: 0.001 }));
      await Promise.all(batches.map((g) => ledger.writeBatch([g], deltas(g.id, key, 0.001))));
      assert.ok(near((await ledger.spendFor(key, ['lifetime'])).get('lifetime')?.amountUsd ?? -1, 0.02));
    });

    it('a batch larger than one INSERT statement', async () => {
      const key = '8'.repeat(64);
      const many = Array.from({ length: 450 }, () => generation({ keyHash: key, costUsd: 0.001 }));
      await ledger.writeBatch(
        many,
        many.flatMap((g) => deltas(g.id, key, 0.001)),
      );
      assert.ok(near((await ledger.spendFor(key, ['lifetime'])).get('lifetime')?.amountUsd ?? -1, 0.45));
      assert.equal((await ledger.findGeneration(many[449]?.id ?? ''))?.keyHash, key);
    });

    it('the meter over the real ledger: limits hold across a restart, usage and generations persist', async () => {
      const clock = new MutableClock('2026-11-21T12:00:00.000Z');
      const key = apiKey({ hash: '7'.repeat(64), limit: 0.05, limitReset: 'weekly' });
      const first = createMeter({ ledger, clock, flushIntervalMs: 60_000 });
      const results = await Promise.allSettled(Array.from({ length: 50 }, () => first.reserve(key, 0.01)));
      const held = results.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
      assert.equal(held.length, 5);
      const g = generation({ keyHash: key.hash, costUsd: 0.01 });
      for (const r of held) first.settle(r, r === held[0] ? g : generation({ keyHash: key.hash, costUsd: 0.01 }));
      await first.close();

      const second = createMeter({ ledger, clock, flushIntervalMs: 60_000 });
      await assert.rejects(second.reserve(key, 0.001), /limit/);
      const usage = (await second.usageReader.read([key.hash], clock.now())).get(key.hash);
      assert.ok(usage !== undefined && near(usage.usageWeekly, 0.05) && near(usage.usage, 0.05));
      assert.equal((await second.getGeneration(g.id, key.hash))?.costUsd, 0.01);
      assert.equal(await second.getGeneration(g.id, HASH), null);
      clock.set('2026-11-23T00:00:00.000Z');
      second.release(await second.reserve(key, 0.05));
      await second.close();
    });
  });
}
