// The meter's batched ledger writes (queue, retries, close) and generation look-ups.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Meter } from '../../src/domain/accounting/types.js';
import { MemoryLedger, apiKey, generation, near } from './fixtures.js';
import { HASH, OTHER, meterWith, rejects402, until } from './meter-harness.js';

describe('meter: batched writes', () => {
  it('settle queues; flush writes generations and spend once; usage is the same before and after', async () => {
    const { meter, ledger } = meterWith();
    const now = new Date('2026-11-21T12:00:00Z');
    for (let i = 0; i < 3; i++) meter.settle(await meter.reserve(apiKey(), 0.01), generation({ costUsd: 0.01 }));
    assert.equal(ledger.writes, 0);
    assert.equal(meter.queueDepth(), 3);
    const before = (await meter.usageReader.read([HASH], now)).get(HASH);
    await meter.flush();
    assert.equal(ledger.writes, 1);
    assert.equal(meter.queueDepth(), 0);
    assert.equal(ledger.generations.size, 3);
    assert.ok(near(ledger.stored(HASH, 'lifetime'), 0.03));
    assert.ok(near(ledger.stored(HASH, 'day:2026-11-21'), 0.03));
    assert.ok(near(ledger.stored(HASH, 'week:2026-11-16'), 0.03));
    assert.ok(near(ledger.stored(HASH, 'month:2026-11'), 0.03));
    const after = (await meter.usageReader.read([HASH], now)).get(HASH);
    assert.deepEqual(after, before);
    await meter.close();
  });

  it('maxBatch: a full queue is written at once, in batches of maxBatch rows', async () => {
    const { meter, ledger } = meterWith({ maxBatch: 3 });
    for (let i = 0; i < 7; i++) meter.settle({ accounts: [HASH], amountUsd: 0 }, generation());
    await until(() => ledger.generations.size >= 6);
    await meter.flush();
    assert.equal(ledger.generations.size, 7);
    assert.equal(ledger.writes, 3);
    await meter.close();
  });

  it('the timer writes the queue without a flush() call', async () => {
    const { meter, ledger } = meterWith({ flushIntervalMs: 10 });
    meter.settle({ accounts: [HASH], amountUsd: 0 }, generation());
    await until(() => ledger.generations.size === 1);
    await meter.close();
  });

  it('a failed write keeps the rows queued (visible in usage and getGeneration) and the retry applies them once', async () => {
    const flushErrors: unknown[] = [];
    const { meter, ledger, logs } = meterWith({ onFlushError: (e) => flushErrors.push(e) });
    const g = generation({ costUsd: 0.02 });
    meter.settle(await meter.reserve(apiKey({ limit: 1 }), 0.05), g);
    ledger.failNext = 1;
    await assert.rejects(meter.flush(), /database is down/);
    assert.equal(flushErrors.length, 1);
    assert.ok(logs.some((l) => l.includes('ledger write failed')));
    assert.equal(meter.queueDepth(), 1);
    assert.equal((await meter.getGeneration(g.id, HASH))?.id, g.id);
    const usage = (await meter.usageReader.read([HASH], new Date('2026-11-21T12:00:00Z'))).get(HASH);
    assert.ok(usage !== undefined && near(usage.usage, 0.02));
    await meter.flush();
    assert.equal(meter.queueDepth(), 0);
    assert.ok(near(ledger.stored(HASH, 'lifetime'), 0.02));
    assert.ok(logs.some((l) => l.includes('recovered')));
    await meter.close();
  });

  it('the timer retries after a failure and nothing is dropped', async () => {
    const ledger = new MemoryLedger();
    ledger.failNext = 2;
    const { meter } = meterWith({ ledger, flushIntervalMs: 10 });
    for (let i = 0; i < 4; i++) meter.settle({ accounts: [HASH], amountUsd: 0 }, generation({ costUsd: 0.01 }));
    await until(() => ledger.generations.size === 4);
    assert.ok(near(ledger.stored(HASH, 'lifetime'), 0.04));
    await meter.close();
  });

  it('a batch whose commit was ambiguous is not counted twice when retried', async () => {
    const { meter, ledger } = meterWith();
    const g = generation({ costUsd: 0.01 });
    meter.settle({ accounts: [HASH], amountUsd: 0 }, g);
    // The first attempt committed but the client saw an error.
    const real = ledger.writeBatch.bind(ledger);
    let first = true;
    ledger.writeBatch = async (gens, deltas) => {
      await real(gens, deltas);
      if (first) {
        first = false;
        throw new Error('connection reset after COMMIT');
      }
    };
    await assert.rejects(meter.flush());
    await meter.flush();
    assert.ok(near(ledger.stored(HASH, 'lifetime'), 0.01));
    await meter.close();
  });

  it('a spend read waits for a batch in flight, so it is counted once', async () => {
    const { meter, ledger } = meterWith();
    meter.settle({ accounts: [HASH], amountUsd: 0 }, generation({ costUsd: 0.01 }));
    let open: () => void = () => undefined;
    ledger.gate = new Promise((resolve) => (open = resolve));
    const flushing = meter.flush();
    await sleep(5);
    const reading = meter.usageReader.read([HASH], new Date('2026-11-21T12:00:00Z'));
    const reserving = meter.reserve(apiKey({ limit: 0.02 }), 0.01);
    await sleep(5);
    ledger.gate = null;
    open();
    await flushing;
    assert.ok(near((await reading).get(HASH)?.usage ?? -1, 0.01));
    meter.release(await reserving);
    await rejects402(meter.reserve(apiKey({ limit: 0.02 }), 0.011));
    await meter.close();
  });

  it('close() flushes; with the database down it resolves and logs what is lost', async () => {
    const { meter, ledger } = meterWith();
    meter.settle({ accounts: [HASH], amountUsd: 0 }, generation());
    await meter.close();
    assert.equal(ledger.generations.size, 1);

    const down = meterWith();
    down.ledger.failNext = 1_000;
    down.meter.settle({ accounts: [HASH], amountUsd: 0 }, generation());
    await down.meter.close();
    assert.ok(down.logs.some((l) => l.startsWith('ALARM') && l.includes('1 generation(s)')));
  });

  it('settle never throws and meters nonsense costs as zero', async () => {
    const { meter, ledger } = meterWith();
    const g = generation({ costUsd: Number.NaN, promptCostUsd: -1, completionCostUsd: Number.POSITIVE_INFINITY });
    meter.settle({ accounts: [HASH], amountUsd: 0 }, g); // a throw fails the test
    await meter.flush();
    assert.equal(ledger.generations.get(g.id)?.costUsd, 0);
    assert.equal(ledger.stored(HASH, 'lifetime'), 0);
    const negativeZero = generation({ costUsd: -0 });
    meter.settle({ accounts: [HASH], amountUsd: 0 }, negativeZero);
    await meter.flush();
    assert.ok(Object.is(ledger.generations.get(negativeZero.id)?.costUsd, 0));
    await meter.close();
  });
});

describe('meter: getGeneration', () => {
  it("finds the key's own generation in the queue and in the ledger; never another key's", async () => {
    const { meter } = meterWith();
    const mine = generation();
    const theirs = generation({ keyHash: OTHER });
    meter.settle({ accounts: [HASH], amountUsd: 0 }, mine);
    meter.settle({ accounts: [OTHER], amountUsd: 0 }, theirs);
    const check = async (m: Meter) => {
      assert.equal((await m.getGeneration(mine.id, HASH))?.id, mine.id);
      assert.equal(await m.getGeneration(mine.id, OTHER), null);
      assert.equal(await m.getGeneration(theirs.id, HASH), null);
      assert.equal(await m.getGeneration('gen-unknown', HASH), null);
    };
    await check(meter);
    await meter.flush();
    await check(meter);
    await meter.close();
  });
});
