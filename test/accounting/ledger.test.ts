import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createMeter } from '../../src/domain/accounting/meter.js';
import type { LedgerRepository, SpendDelta } from '../../src/domain/accounting/types.js';
import { createLedgerRepository } from '../../src/store/repositories/ledger.js';
import { dialects } from '../support/server.js';
import { openAccountingDb, type AccountingDb } from './database.js';
import { ManualClock, apiKey, generation, near } from './fixtures.js';

const HASH = 'c'.repeat(64);
const OTHER = 'e'.repeat(64);
const W = ['lifetime', 'day:2026-11-21', 'week:2026-11-16', 'month:2026-11'];

const deltas = (generationId: string, keyHash: string, amountUsd: number): SpendDelta[] =>
  W.map((window) => ({ generationId, account: keyHash, window, amountUsd, byokUsd: 0 }));

for (const dialect of dialects()) {
  describe(`ledger repository (${dialect})`, () => {
    let store: AccountingDb;
    let ledger: LedgerRepository;

    before(async () => {
      store = await openAccountingDb(dialect);
      ledger = createLedgerRepository(store.db);
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
      await ledger.writeBatch(many, many.flatMap((g) => deltas(g.id, key, 0.001)));
      assert.ok(near((await ledger.spendFor(key, ['lifetime'])).get('lifetime')?.amountUsd ?? -1, 0.45));
      assert.equal((await ledger.findGeneration(many[449]?.id ?? ''))?.keyHash, key);
    });

    it('the meter over the real ledger: limits hold across a restart, usage and generations persist', async () => {
      const clock = new ManualClock('2026-11-21T12:00:00.000Z');
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
