import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ChangeFeedState } from '../common/changes.js';
import { KeyAuthenticator } from './authenticator.js';
import { KnownDigests } from './known-digests.js';
import { generateToken } from './tokens.js';
import { keyRecord } from './key-fixture.js';
import type { KeyRecord } from './types.js';

const record = (token: string, hash: string): KeyRecord => keyRecord(token, { hash });

/** A key store in memory that counts reads, and a feed whose state the test sets. */
function harness() {
  const rows = new Map<string, KeyRecord>();
  const counts = { digest: 0, hash: 0, list: 0 };
  let state: ChangeFeedState = 'live';
  const keys = {
    findByDigest: (d: string) => {
      counts.digest += 1;
      return Promise.resolve([...rows.values()].find((r) => r.tokenDigest === d) ?? null);
    },
    findByHash: (h: string) => {
      counts.hash += 1;
      return Promise.resolve(rows.get(h) ?? null);
    },
    listDigests: (after: string | null, limit: number) => {
      counts.list += 1;
      const all = [...rows.values()].map((r) => r.tokenDigest).sort();
      return Promise.resolve(all.filter((d) => after === null || d > after).slice(0, limit));
    },
  };
  const changes = { state: () => state, refresh: () => undefined };
  const digests = new KnownDigests({ keys, changes, pageSize: 2 });
  const auth = new KeyAuthenticator({
    keys,
    clock: { now: () => new Date('2026-06-01T00:00:00.000Z') },
    changes,
    revalidateAfterMs: 1000,
    graceMs: 60_000,
    digests,
  });
  const add = (token: string, hash: string) => rows.set(hash, record(token, hash));
  return { rows, counts, digests, auth, add, setState: (s: ChangeFeedState) => (state = s) };
}

const status = (p: Promise<unknown>) =>
  p.then(
    () => 200,
    (e: { status?: number }) => e.status ?? 500,
  );

describe('KnownDigests with the key authenticator', () => {
  it('refuses an unknown token without a store read while the feed is live; verifies a stored one', async () => {
    const h = harness();
    const tokens = [generateToken(), generateToken(), generateToken()];
    tokens.forEach((t, i) => h.add(t, `h${i}`));
    await h.digests.start();
    assert.equal(h.digests.stats().size, 3, 'loaded over several pages');
    for (let i = 0; i < 100; i += 1) assert.equal(await status(h.auth.authenticate(generateToken())), 401);
    assert.equal(h.counts.digest, 0);
    for (const t of tokens) assert.equal(await status(h.auth.authenticate(t, { guarded: true })), 200);
    assert.equal(h.counts.digest, 3, 'one read per stored key, guarded or not');
  });

  it('a key announced by the feed is known after its read; a stale digest is dropped after one read', async () => {
    const h = harness();
    await h.digests.start();
    const token = generateToken();
    h.add(token, 'new');
    h.digests.changed('new');
    assert.equal(await status(h.auth.authenticate(token, { guarded: true })), 200, 'waits for the read under way');
    h.rows.delete('new');
    h.auth.forget('new');
    const reads = h.counts.digest;
    assert.equal(await status(h.auth.authenticate(token)), 401);
    assert.equal(await status(h.auth.authenticate(token)), 401);
    assert.equal(h.counts.digest - reads, 1, 'the second refusal comes from memory');
  });

  it('feed down: the store is read for unknown tokens, except from a throttled address', async () => {
    const h = harness();
    await h.digests.start();
    h.setState('down');
    const created = generateToken();
    h.add(created, 'during-outage');
    assert.equal(await status(h.auth.authenticate(created)), 200, 'read from the store');
    assert.equal(h.counts.digest, 1);
    assert.equal(await status(h.auth.authenticate(generateToken(), { guarded: true })), 401);
    assert.equal(h.counts.digest, 1, 'a throttled address costs no read');
    assert.equal(await status(h.auth.authenticate(generateToken())), 401);
    assert.equal(h.counts.digest, 2);
  });

  it('"anything may have changed" reloads the set; misses wait for the reload', async () => {
    const h = harness();
    await h.digests.start();
    const token = generateToken();
    h.add(token, 'external');
    h.digests.changed(null);
    assert.equal(await status(h.auth.authenticate(token, { guarded: true })), 200);
    assert.equal(h.digests.stats().authoritative, true);
  });
});
