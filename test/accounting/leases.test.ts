import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { LeaseBook } from '../../src/domain/accounting/lease-book.js';
import type { LeaseRequest, LedgerRepository } from '../../src/domain/accounting/types.js';
import { createLedgerRepository } from '../../src/store/repositories/ledger.js';
import { dialects } from '../support/server.js';
import { openAccountingDb, type AccountingDb } from './database.js';
import { MemoryLedger, generation, near } from './fixtures.js';
import { MutableClock } from '../support/clock.js';

const NOW = '2026-11-21T12:00:00.000Z';
const LATER = '2026-11-21T12:00:30.000Z';

function request(account: string, holder: string, patch: Partial<LeaseRequest> = {}): LeaseRequest {
  return {
    account,
    window: 'lifetime',
    holder,
    limitUsd: 1,
    needUsd: 0.1,
    wantUsd: 0.3,
    now: NOW,
    expiresAt: LATER,
    ...patch,
  };
}

for (const dialect of dialects()) {
  describe(`budget leases in the store (${dialect})`, () => {
    let store: AccountingDb;
    let ledger: LedgerRepository;

    before(async () => {
      store = await openAccountingDb(dialect);
      ledger = createLedgerRepository(store.db, store.writer);
    });
    after(() => store.close());

    it('grants up to want within limit − stored spend − live leases of others; refuses below need', async () => {
      const g = generation({ keyHash: 'acct-a', costUsd: 0.4 });
      await ledger.writeBatch(
        [g],
        [{ generationId: g.id, account: 'acct-a', window: 'lifetime', amountUsd: 0.4, byokUsd: 0 }],
      );
      assert.deepEqual(await ledger.grantLease(request('acct-a', 'r1')), { leaseUsd: 0.3, roomUsd: 0.6 });
      const second = await ledger.grantLease(request('acct-a', 'r2', { needUsd: 0.2, wantUsd: 0.9 }));
      assert.ok(second.leaseUsd !== null && near(second.leaseUsd, 0.3), `r2 gets what is left: ${second.leaseUsd}`);
      const refused = await ledger.grantLease(request('acct-a', 'r3', { needUsd: 0.01 }));
      assert.equal(refused.leaseUsd, null);
      // A holder's own lease does not count against itself: r1 may grow into what is left (nothing).
      const again = await ledger.grantLease(request('acct-a', 'r1', { needUsd: 0.3, wantUsd: 0.5 }));
      assert.ok(again.leaseUsd !== null && near(again.leaseUsd, 0.3));
    });

    it('expired leases of others count for nobody and are purged; renewal reports a lease that is gone', async () => {
      await ledger.grantLease(request('acct-b', 'dead', { needUsd: 0.9, wantUsd: 0.9 }));
      const later = { now: '2026-11-21T12:01:00.000Z', expiresAt: '2026-11-21T12:01:30.000Z' };
      const grant = await ledger.grantLease(request('acct-b', 'alive', { ...later, needUsd: 0.5, wantUsd: 1 }));
      assert.equal(grant.leaseUsd, 1);
      const missing = await ledger.renewLeases(
        'dead',
        [{ account: 'acct-b', window: 'lifetime', leaseUsd: 0.9 }],
        later.expiresAt,
        later.now,
      );
      assert.deepEqual(missing, [{ account: 'acct-b', window: 'lifetime' }]);
      assert.deepEqual(
        await ledger.renewLeases(
          'alive',
          [{ account: 'acct-b', window: 'lifetime', leaseUsd: 0.25 }],
          later.expiresAt,
          later.now,
        ),
        [],
      );
      const other = await ledger.grantLease(request('acct-b', 'third', { ...later, needUsd: 0.75, wantUsd: 1 }));
      assert.ok(other.leaseUsd !== null && near(other.leaseUsd, 0.75), 'a renewed (shrunk) lease frees the rest');
      await ledger.releaseLeases('alive', [{ account: 'acct-b', window: 'lifetime' }]);
      const freed = await ledger.grantLease(request('acct-b', 'third', { ...later, needUsd: 1, wantUsd: 1 }));
      assert.equal(freed.leaseUsd, 1);
    });

    it('concurrent grants of many replicas never lease more than the limit together', async () => {
      const holders = Array.from({ length: 12 }, (_, i) => `h${i}`);
      const results = await Promise.all(
        holders.map((h) => ledger.grantLease(request('acct-c', h, { needUsd: 0.1, wantUsd: 0.25 }))),
      );
      const total = results.reduce((n, r) => n + (r.leaseUsd ?? 0), 0);
      assert.ok(total <= 1 + 1e-9, `leased ${total} of a limit of 1`);
      assert.ok(results.filter((r) => r.leaseUsd !== null).length >= 4);
    });
  });
}

describe('LeaseBook', () => {
  function book(ledger = new MemoryLedger(), clock = new MutableClock(NOW)) {
    const used = new Map<string, number>();
    const leases = new LeaseBook({
      store: ledger,
      holder: 'me',
      clock,
      ttlMs: 30_000,
      idleMs: 5000,
      readTurn: (fn) => fn(),
      used: (account) => used.get(account) ?? 0,
      log: () => undefined,
    });
    return { leases, ledger, clock, used };
  }
  const slot = { account: 'k', window: 'lifetime' };

  it('a lease is usable until shortly before its expiry, then must be granted again', async () => {
    const { leases, clock } = book();
    await leases.extend(slot, 1, 0.1, 0.2);
    assert.ok(near(leases.usable('k', 'lifetime'), 0.3));
    clock.advance(24_000);
    assert.ok(leases.usable('k', 'lifetime') > 0);
    clock.advance(2000);
    assert.equal(leases.usable('k', 'lifetime'), 0, 'past ttl minus the safety margin');
  });

  it('a limit lowered below the one a lease was granted under voids it at once', async () => {
    const { leases } = book();
    await leases.extend(slot, 1, 0.5, 0.5);
    assert.equal(leases.usable('k', 'lifetime', 1), 1);
    assert.equal(leases.usable('k', 'lifetime', 0.4), 0);
    const regrant = await leases.extend(slot, 0.4, 0.1, 1);
    assert.equal(regrant.leaseUsd, 0.4);
  });

  it('maintenance writes a shrunken lease, renews it before expiry and gives idle ones back', async () => {
    const { leases, ledger, clock, used } = book();
    await leases.extend(slot, 1, 0.2, 0.3);
    used.set('k', 0.1);
    leases.consume('k', 'lifetime', 0.2);
    await leases.maintain();
    assert.ok(near(ledger.leases.get('k\nlifetime\nme')?.amountUsd ?? -1, 0.3), 'shrunk as spend was stored');
    clock.advance(20_000);
    await leases.maintain();
    assert.equal(ledger.leases.get('k\nlifetime\nme')?.expiresAt, '2026-11-21T12:00:50.000Z', 'renewed');
    used.set('k', 0);
    await leases.maintain();
    assert.equal(ledger.leases.size, 0, 'idle for 5 s with nothing in flight: given back');
    assert.equal(leases.usable('k', 'lifetime'), 0);
  });
});
