// Guardrail rate limits across two replicas on one PostgreSQL: the count is shared, so the
// sixth call of a minute is refused on every replica. The excess of a burst is printed
// (docs/guardrails.md quotes it).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { pgSkipReason } from '../harness/env.js';
import { request, startCluster, type Cluster, type Replica } from './cluster.js';

const say = (line: string) => process.stdout.write(`# scale: ${line}\n`);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits until at least `needMs` are left in the current UTC minute (rate windows are minutes). */
async function roomInMinute(needMs: number): Promise<void> {
  const left = 60_000 - (Date.now() % 60_000);
  if (left < needMs) await sleep(left + 200);
}

describe('rate limits on two replicas', { skip: pgSkipReason() ?? false }, () => {
  let cluster: Cluster;
  let A: Replica;
  let B: Replica;
  const mgmt = () => cluster.managementToken;

  const limitedKey = async (limit: number) => {
    const key = await request<{ key: string; data: { hash: string } }>(A, 'POST', '/keys', mgmt(), { name: 'rl' });
    assert.equal(key.status, 201);
    const g = await request<{ data: { id: string } }>(A, 'POST', '/guardrails', mgmt(), {
      name: `rl-${limit}-${Math.random()}`,
      requests_per_minute: limit,
    });
    assert.equal(g.status, 201);
    const assigned = await request(B, 'POST', `/guardrails/${g.body.data.id}/assignments/keys`, mgmt(), {
      key_hashes: [key.body.data.hash],
    });
    assert.equal(assigned.status, 200);
    return key.body.key;
  };
  const chat = async (via: Replica, token: string) =>
    (
      await request(via, 'POST', '/chat/completions', token, {
        model: 'demo/echo',
        max_tokens: 8,
        messages: [{ role: 'user', content: 'hi' }],
      })
    ).status;

  before(async () => {
    cluster = await startCluster(2);
    [A, B] = cluster.replicas as [Replica, Replica];
  });
  after(() => cluster.close());

  it('requests_per_minute 5: five calls spread over both replicas pass, the sixth is a 429 on each', async () => {
    await roomInMinute(20_000);
    const token = await limitedKey(5);
    const order = [A, B, A, B, A];
    for (const [i, r] of order.entries()) {
      assert.equal(await chat(r, token), 200, `call ${i + 1} on ${r.name}`);
      await sleep(500); // more than two sync intervals: every replica knows the count
    }
    assert.equal(await chat(A, token), 429, 'sixth call on A');
    assert.equal(await chat(B, token), 429, 'sixth call on B');
  });

  it('a burst split over both replicas overshoots by a bounded amount (printed)', async () => {
    await roomInMinute(20_000);
    const limit = 20;
    const token = await limitedKey(limit);
    const burst = await Promise.all(Array.from({ length: 60 }, (_, i) => chat(i % 2 === 0 ? A : B, token)));
    const admitted = burst.filter((s) => s === 200).length;
    assert.ok(burst.every((s) => s === 200 || s === 429));
    await sleep(500);
    const later = await Promise.all([chat(A, token), chat(B, token)]);
    say(
      `rate limit ${limit}/min, 60 concurrent calls over 2 replicas: ${admitted} admitted; after one sync: ${later.join(', ')}`,
    );
    assert.ok(admitted >= limit, 'the limit itself is reachable');
    assert.ok(admitted <= 2 * limit, 'each replica alone never exceeds the limit');
    assert.deepEqual(later, [429, 429]);
  });
});
