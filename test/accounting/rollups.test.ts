import { after, before, describe, it } from 'node:test';
import type { GenerationRecord, LedgerRepository } from '../../src/domain/accounting/types.js';
import { createLedgerRepository } from '../../src/store/repositories/ledger.js';
import { dialects } from '../support/server.js';
import { assertSameSums, dailyRollups, hourlyRollupsByDay, type Sums } from '../support/rollups.js';
import { openAccountingDb, type AccountingDb } from './database.js';
import { generation } from './fixtures.js';

const KEYS = ['1'.repeat(64), '2'.repeat(64)];
const AT = [
  '2026-11-20T23:10:00.000Z',
  '2026-11-20T23:59:59.999Z',
  '2026-11-21T00:00:00.000Z',
  '2026-11-21T07:30:00.000Z',
];

/** Generations spread over two UTC days, three hours, two keys and two models, with errors, flags and cancels. */
function spread(count: number, offset: number): GenerationRecord[] {
  return Array.from({ length: count }, (_, n) => {
    const i = n + offset;
    return generation({
      keyHash: KEYS[i % 2],
      model: i % 3 === 0 ? 'demo/echo' : 'demo/fast',
      upstreamModel: i % 3 === 0 ? 'echo' : 'fast',
      createdAt: AT[i % AT.length],
      finishReason: i % 5 === 0 ? 'error' : 'stop',
      cancelled: i % 7 === 0,
      flags: i % 4 === 1 ? ['email'] : [],
      promptTokens: 10 + i,
      completionTokens: 3 + (i % 9),
      reasoningTokens: i % 2,
      costUsd: 0.001 * (i + 1),
      generationTimeMs: 100 + i,
    });
  });
}

/** The generations summed per day × key × model × endpoint, as the daily rollups must hold them. */
function expectedDaily(generations: readonly GenerationRecord[]): Map<string, Sums> {
  const out = new Map<string, Sums>();
  for (const g of generations) {
    const id = [g.createdAt.slice(0, 10), g.keyHash, g.workspaceId, g.model, g.providerId, g.upstreamModel].join(' | ');
    const s = out.get(id) ?? {
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
    };
    s.requests += 1;
    s.errors += g.finishReason === 'error' ? 1 : 0;
    s.cancelled += g.cancelled ? 1 : 0;
    s.flagged += g.flags.length > 0 ? 1 : 0;
    s.prompt_tokens += g.promptTokens;
    s.completion_tokens += g.completionTokens;
    s.reasoning_tokens += g.reasoningTokens;
    s.cost_usd += g.costUsd;
    s.generation_time_ms += g.generationTimeMs;
    out.set(id, s);
  }
  return out;
}

// Every batch writer keeps the daily rollups: the fixed-statement ones of both dialects and Kysely's.
for (const [dialect, writer] of dialects().flatMap(
  (d) =>
    [
      [d, 'fixed statements'],
      [d, 'kysely'],
    ] as const,
)) {
  describe(`daily usage rollups written with the ledger (${dialect}, ${writer})`, () => {
    let store: AccountingDb;
    let ledger: LedgerRepository;

    before(async () => {
      store = await openAccountingDb(dialect);
      ledger = createLedgerRepository(store.db, writer === 'kysely' ? undefined : store.writer);
    });
    after(() => store.close());

    it('equal the generations and the hourly rollups per day, across batches, days and a retried batch', async () => {
      const first = spread(40, 0);
      const second = spread(25, 40);
      await ledger.writeBatch(first, []);
      await ledger.writeBatch(second, []);
      // A retried batch adds only its new generation.
      const extra = spread(1, 65);
      await ledger.writeBatch([...first.slice(0, 10), ...extra], []);
      const daily = await dailyRollups(store.db);
      assertSameSums(daily, expectedDaily([...first, ...second, ...extra]));
      assertSameSums(daily, await hourlyRollupsByDay(store.db));
    });
  });
}
