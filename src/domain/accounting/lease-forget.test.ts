import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { LeaseBook, type LeaseStore } from './lease-book.js';
import type { LeaseGrant, LeaseRequest } from './types.js';

const clock = { now: () => new Date('2026-11-25T12:00:00Z') };
const slot = { account: 'key-a', window: 'lifetime' };

function book(grant: (request: LeaseRequest) => Promise<LeaseGrant>): LeaseBook {
  const store: LeaseStore = {
    grantLease: grant,
    renewLeases: () => Promise.resolve([]),
    releaseLeases: () => Promise.resolve(),
  };
  return new LeaseBook({
    store,
    holder: 'replica-test',
    clock,
    ttlMs: 30_000,
    idleMs: 5000,
    readTurn: (fn) => fn(),
    used: () => 0,
    log: () => undefined,
  });
}

describe('LeaseBook.forgetAll (after a restore)', () => {
  it('drops every lease, so the next call asks the restored store', async () => {
    const leases = book((r) => Promise.resolve({ leaseUsd: r.wantUsd, roomUsd: 10 }));
    await leases.extend(slot, 10, 1, 1);
    assert.equal(leases.usable(slot.account, slot.window, 10), 2);
    leases.forgetAll();
    assert.equal(leases.usable(slot.account, slot.window, 10), 0);
  });

  it('does not record a grant that was under way when the leases were forgotten, nor treat it as a refusal', async () => {
    let answer: (grant: LeaseGrant) => void = () => undefined;
    const leases = book(() => new Promise((resolve) => (answer = resolve)));
    const pending = leases.extend(slot, 10, 1, 1);
    await new Promise((done) => setImmediate(done));
    leases.forgetAll();
    answer({ leaseUsd: null, roomUsd: 0 });
    const result = await pending;
    assert.notEqual(result.leaseUsd, null, 'the caller asks again instead of refusing the call');
    assert.equal(leases.usable(slot.account, slot.window, 10), 0);
    assert.equal(leases.recentRefusal(slot.account, slot.window, 1), null);
  });
});
