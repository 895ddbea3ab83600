// The meter's admissions against key and guardrail limits, leases across replicas, and spend windows.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Meter, Reservation } from '../../src/domain/accounting/types.js';
import { isGatewayError } from '../../src/errors/index.js';
import { MemoryLedger, apiKey, generation, near } from './fixtures.js';
import { MutableClock } from '../support/clock.js';
import { HASH, OTHER, meterWith, rejects402 } from './meter-harness.js';

describe('meter: reservations', () => {
  it('a key without limit always passes and never reads the ledger', async () => {
    const { meter, ledger } = meterWith();
    for (let i = 0; i < 10; i++) await meter.reserve(apiKey(), 1_000);
    assert.equal(ledger.reads, 0);
    await meter.close();
  });

  it('50 concurrent reserves of 0.01 against a limit of 0.05: exactly 5 succeed, one lease grant and one refusal', async () => {
    const { meter, ledger } = meterWith();
    const key = apiKey({ limit: 0.05 });
    const results = await Promise.allSettled(Array.from({ length: 50 }, () => meter.reserve(key, 0.01)));
    const ok = results.filter((r) => r.status === 'fulfilled');
    assert.equal(ok.length, 5);
    for (const r of results)
      if (r.status === 'rejected') assert.ok(isGatewayError(r.reason) && r.reason.status === 402);
    assert.ok(ledger.grants <= 3, `${ledger.grants} grants`);
    assert.equal(ledger.reads, 0, 'no spend read on the hot path');
    await meter.close();
  });

  it('the 402 names the limit, what is left and the estimate', async () => {
    const { meter } = meterWith();
    await assert.rejects(meter.reserve(apiKey({ limit: 0.05, limitReset: 'daily' }), 0.06), (e: unknown) => {
      assert.ok(isGatewayError(e));
      assert.equal(e.status, 402);
      assert.deepEqual(e.metadata, { limit: 0.05, limit_remaining: 0.05, limit_reset: 'daily', estimated_cost: 0.06 });
      return true;
    });
    await meter.close();
  });

  it('a key record whose limit or reset changes is checked against the new one (the key budget is rebuilt)', async () => {
    const { meter } = meterWith();
    const key = apiKey({ limit: 1, limitReset: null });
    meter.release(await meter.reserve(key, 0.5));
    key.limit = 0.1;
    await assert.rejects(
      meter.reserve(key, 0.5),
      (e: unknown) => isGatewayError(e) && e.status === 402 && e.metadata?.['limit'] === 0.1,
    );
    key.limitReset = 'daily';
    await assert.rejects(
      meter.reserve(key, 0.5),
      (e: unknown) => isGatewayError(e) && e.metadata?.['limit_reset'] === 'daily',
    );
    await meter.close();
  });

  /** Callers that reserve 0.01, "call" for a moment, then settle `actual`, until refused. */
  async function spendUntilRefused(callers: number, actual: number): Promise<number> {
    const { meter } = meterWith();
    const key = apiKey({ limit: 0.05 });
    let spent = 0;
    const worker = async () => {
      for (;;) {
        let r: Reservation;
        try {
          r = await meter.reserve(key, 0.01);
        } catch {
          return;
        }
        await sleep(1);
        spent += actual;
        meter.settle(r, generation({ costUsd: actual }));
      }
    };
    await Promise.all(Array.from({ length: callers }, worker));
    const usage = (await meter.usageReader.read([HASH], new Date('2026-11-21T12:00:00Z'))).get(HASH);
    assert.ok(usage !== undefined && near(usage.usage, spent));
    await meter.close();
    return spent;
  }

  it('50 concurrent callers whose estimate covers the cost never spend past the limit', async () => {
    for (const actual of [0.01, 0.007, 0.0001]) {
      const spent = await spendUntilRefused(50, actual);
      assert.ok(spent <= 0.05 + 1e-9, `spent ${spent} with actual cost ${actual}`);
      assert.ok(spent > 0.05 - 0.01 - 1e-9, `stopped early at ${spent}`);
    }
  });

  it('a cost above its estimate overshoots by at most that excess per call admitted at the same time', async () => {
    // One caller at a time: at most one request over.
    const sequential = await spendUntilRefused(1, 0.018);
    assert.ok(sequential <= 0.05 + 0.018 + 1e-9, `sequential spent ${sequential}`);
    // 50 callers: at most limit/estimate = 5 calls are admitted together, each 0.008 over its estimate.
    const concurrent = await spendUntilRefused(50, 0.018);
    assert.ok(concurrent <= 0.05 + 5 * 0.008 + 1e-9, `concurrent spent ${concurrent}`);
  });

  it('settled spend counts at once; release gives the reservation back; repeats are no-ops', async () => {
    const { meter } = meterWith();
    const key = apiKey({ limit: 0.05 });
    const held = await Promise.all(Array.from({ length: 5 }, () => meter.reserve(key, 0.01)));
    await rejects402(meter.reserve(key, 0.01));
    for (const r of held) {
      meter.release(r);
      meter.release(r);
    }
    const again = await Promise.all(Array.from({ length: 5 }, () => meter.reserve(key, 0.01)));
    for (const r of again) meter.settle(r, generation({ costUsd: 0.008 }));
    meter.release(again[0] as Reservation); // already settled: no effect
    // 0.04 spent: 0.01 left.
    const last = await meter.reserve(key, 0.01);
    await rejects402(meter.reserve(key, 0.0001));
    meter.release(last);
    await meter.close();
  });

  it('committed spend comes from the ledger (another process, an earlier run)', async () => {
    const ledger = new MemoryLedger();
    ledger.spend.set(`${HASH}\nmonth:2026-11`, { amountUsd: 0.045, byokUsd: 0 });
    const { meter } = meterWith({ ledger });
    const key = apiKey({ limit: 0.05, limitReset: 'monthly' });
    await rejects402(meter.reserve(key, 0.01));
    await meter.reserve(key, 0.005);
    await meter.close();
  });

  it('an exhausted key is refused even for a zero estimate', async () => {
    const { meter } = meterWith();
    const key = apiKey({ limit: 0.01 });
    meter.settle(await meter.reserve(key, 0.01), generation({ costUsd: 0.01 }));
    await rejects402(meter.reserve(key, 0));
    await rejects402(meter.reserve(apiKey({ hash: OTHER, limit: 0 }), 0));
    await meter.close();
  });

  it('spend stored by another replica counts at the next grant', async () => {
    const { meter, ledger } = meterWith();
    const key = apiKey({ limit: 0.05 });
    meter.release(await meter.reserve(key, 0.01));
    // Another replica stored 0.04; this one's lease (granted before) still holds 0.05 - until it is given back.
    ledger.spend.set(`${HASH}\nlifetime`, { amountUsd: 0.04, byokUsd: 0 });
    await meter.close();
    const next = meterWith({ ledger });
    await rejects402(next.meter.reserve(key, 0.02));
    next.meter.release(await next.meter.reserve(key, 0.01));
    await next.meter.close();
  });

  it('replicas on one ledger never admit more together than the limit', async () => {
    const ledger = new MemoryLedger();
    const replicas = [meterWith({ ledger }), meterWith({ ledger }), meterWith({ ledger })];
    const key = apiKey({ limit: 0.1 });
    let admitted = 0;
    const worker = async (meter: Meter) => {
      for (;;) {
        let r: Reservation;
        try {
          r = await meter.reserve(key, 0.01);
        } catch {
          return;
        }
        admitted += 1;
        await sleep(1);
        meter.settle(r, generation({ costUsd: 0.01 }));
        if (Math.random() < 0.3) await meter.flush();
      }
    };
    await Promise.all(replicas.flatMap((r) => Array.from({ length: 10 }, () => worker(r.meter))));
    assert.ok(admitted <= 10, `admitted ${admitted} calls of 0.01 under a limit of 0.1`);
    assert.ok(admitted >= 5, `admitted only ${admitted}`);
    for (const r of replicas) await r.meter.close();
    assert.ok(ledger.stored(HASH, 'lifetime') <= 0.1 + 1e-9);
    assert.equal(ledger.leases.size, 0, 'closing gives every lease back');
  });

  it('a grant that cannot reach the database is a 503, never a 402', async () => {
    const { meter, ledger } = meterWith();
    ledger.failGrants = 1;
    await assert.rejects(
      meter.reserve(apiKey({ limit: 1 }), 0.01),
      (e: unknown) => isGatewayError(e) && e.status === 503,
    );
    meter.release(await meter.reserve(apiKey({ limit: 1 }), 0.01));
    await meter.close();
  });
});

describe('meter: windows roll over with the clock', () => {
  const cases: { reset: 'daily' | 'weekly' | 'monthly'; before: string; stillSame: string; after: string }[] = [
    {
      reset: 'daily',
      before: '2026-11-21T08:00:00.000Z',
      stillSame: '2026-11-21T23:59:59.999Z',
      after: '2026-11-22T00:00:00.000Z',
    },
    // 2026-11-16 is a Monday: the week runs to Sunday 2026-11-22.
    {
      reset: 'weekly',
      before: '2026-11-16T00:00:00.000Z',
      stillSame: '2026-11-22T23:59:59.999Z',
      after: '2026-11-23T00:00:00.000Z',
    },
    {
      reset: 'monthly',
      before: '2026-01-01T00:00:00.000Z',
      stillSame: '2026-01-31T23:59:59.999Z',
      after: '2026-02-01T00:00:00.000Z',
    },
  ];
  for (const c of cases) {
    it(`${c.reset}: spent out until ${c.stillSame}, fresh at ${c.after}`, async () => {
      const clock = new MutableClock(c.before);
      const { meter } = meterWith({ clock });
      const key = apiKey({ limit: 0.02, limitReset: c.reset });
      meter.settle(await meter.reserve(key, 0.02), generation({ costUsd: 0.02 }));
      await rejects402(meter.reserve(key, 0.001));
      clock.set(c.stillSame);
      await rejects402(meter.reserve(key, 0.001));
      clock.set(c.after);
      meter.release(await meter.reserve(key, 0.02));
      await meter.flush();
      await meter.close();
    });
  }

  it('a lifetime limit never resets', async () => {
    const clock = new MutableClock('2026-01-01T00:00:00.000Z');
    const { meter } = meterWith({ clock });
    const key = apiKey({ limit: 0.02 });
    meter.settle(await meter.reserve(key, 0.02), generation({ costUsd: 0.02 }));
    clock.set('2027-06-01T00:00:00.000Z');
    await rejects402(meter.reserve(key, 0.001));
    await meter.close();
  });

  it('usage: lifetime, UTC day, ISO week and month, after the windows move', async () => {
    const clock = new MutableClock('2026-11-22T23:00:00.000Z'); // Sunday
    const { meter } = meterWith({ clock });
    meter.settle(await meter.reserve(apiKey(), 0), generation({ costUsd: 0.03 }));
    const read = async (iso: string) => (await meter.usageReader.read([HASH], new Date(iso))).get(HASH);
    assert.deepEqual(await read('2026-11-22T23:30:00Z'), {
      usage: 0.03,
      usageDaily: 0.03,
      usageWeekly: 0.03,
      usageMonthly: 0.03,
      byokUsage: 0,
      byokUsageDaily: 0,
      byokUsageWeekly: 0,
      byokUsageMonthly: 0,
    });
    await meter.flush();
    const monday = await read('2026-11-23T00:00:00Z');
    assert.ok(monday !== undefined);
    assert.deepEqual([monday.usage, monday.usageDaily, monday.usageWeekly, monday.usageMonthly], [0.03, 0, 0, 0.03]);
    const december = await read('2026-12-01T00:00:00Z');
    assert.ok(december !== undefined);
    assert.deepEqual([december.usage, december.usageMonthly], [0.03, 0]);
    await meter.close();
  });
});
