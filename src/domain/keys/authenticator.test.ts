import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isGatewayError } from '../../errors/index.js';
import type { ChangeFeedState } from '../common/changes.js';
import { KeyAuthenticator, type AuthenticatorOptions } from './authenticator.js';
import { generateToken } from './tokens.js';
import type { KeyRecord } from './types.js';
import { keyRecord } from './key-fixture.js';

const record = keyRecord;

/** A store the test controls: records by digest, an outage switch, a read counter. */
function harness(options: Partial<AuthenticatorOptions> = {}) {
  const rows = new Map<string, KeyRecord>();
  let t = 1000;
  let state: ChangeFeedState = 'live';
  let down = false;
  let reads = 0;
  let gate: Promise<void> | null = null;
  const counts = { stale: 0, unavailable: 0 };
  const auth = new KeyAuthenticator({
    keys: {
      findByDigest: async (digest) => {
        reads += 1;
        // The row as the read saw it when it started: the gate delays only the answer.
        const seen = rows.get(digest) ?? null;
        if (gate !== null) await gate;
        if (down) throw new Error('connect ECONNREFUSED');
        return seen;
      },
    },
    clock: { now: () => new Date('2026-06-01T00:00:00Z') },
    changes: { state: () => state, refresh: () => undefined },
    revalidateAfterMs: 1000,
    graceMs: 10_000,
    failureBackoffMs: 0,
    monotonicNow: () => t,
    observer: { staleDecision: () => (counts.stale += 1), unavailable: () => (counts.unavailable += 1) },
    ...options,
  });
  return {
    auth,
    counts,
    put: (r: KeyRecord) => rows.set(r.tokenDigest, r),
    remove: (r: KeyRecord) => rows.delete(r.tokenDigest),
    advance: (ms: number) => (t += ms),
    setState: (s: ChangeFeedState) => (state = s),
    setDown: (d: boolean) => (down = d),
    reads: () => reads,
    hold: () => {
      let open = () => undefined as void;
      gate = new Promise<void>((resolve) => (open = resolve));
      return () => {
        gate = null;
        open();
      };
    },
  };
}

async function status(promise: Promise<unknown>): Promise<number> {
  try {
    await promise;
    return 200;
  } catch (error) {
    if (isGatewayError(error)) return error.status;
    throw error;
  }
}

describe('KeyAuthenticator', () => {
  it('with a live feed, serves a cached key from memory until a change for it arrives', async () => {
    const h = harness();
    const token = generateToken();
    h.put(record(token));
    await h.auth.authenticate(token);
    h.advance(60_000);
    await h.auth.authenticate(token);
    assert.equal(h.reads(), 1, 'no store read while the feed is live');
    h.put(record(token, { disabled: true }));
    h.auth.forget('h1');
    assert.equal(await status(h.auth.authenticate(token)), 401);
    assert.equal(h.reads(), 2);
  });

  it('with the feed down, re-reads records older than revalidateAfterMs', async () => {
    const h = harness();
    const token = generateToken();
    h.put(record(token));
    await h.auth.authenticate(token);
    h.setState('down');
    h.advance(500);
    await h.auth.authenticate(token);
    assert.equal(h.reads(), 1);
    h.advance(600);
    h.remove(record(token));
    assert.equal(
      await status(h.auth.authenticate(token)),
      401,
      'deleted while the feed was down: seen within the bound',
    );
  });

  it('invalidateAll marks records for re-reading without dropping them', async () => {
    const h = harness();
    const token = generateToken();
    h.put(record(token));
    await h.auth.authenticate(token);
    h.auth.invalidateAll();
    h.advance(1);
    await h.auth.authenticate(token);
    assert.equal(h.reads(), 2);
    assert.equal(h.auth.size(), 1);
  });

  it('store unreachable: a recently verified key keeps its decision, never a 401; past the grace, 503', async () => {
    const h = harness();
    const token = generateToken();
    const disabledToken = generateToken();
    h.put(record(token));
    h.put(record(disabledToken, { hash: 'h2', disabled: true }));
    await h.auth.authenticate(token);
    assert.equal(await status(h.auth.authenticate(disabledToken)), 401);
    h.auth.invalidateAll();
    h.setDown(true);
    h.advance(5000);
    assert.equal(await status(h.auth.authenticate(token)), 200);
    assert.equal(await status(h.auth.authenticate(disabledToken)), 401, 'a cached refusal stays a refusal');
    assert.equal(await status(h.auth.authenticate(generateToken())), 503, 'an unknown token cannot be decided');
    h.advance(6000);
    assert.equal(await status(h.auth.authenticate(token)), 503, 'past the grace');
    assert.equal(h.counts.stale, 2);
    assert.equal(h.counts.unavailable, 2);
    h.setDown(false);
    assert.equal(await status(h.auth.authenticate(token)), 200, 'back when the store is');
  });

  it('a read that overlapped an invalidation is not cached (no stale token after rotation)', async () => {
    const h = harness();
    const token = generateToken();
    h.put(record(token));
    const release = h.hold();
    const pending = h.auth.authenticate(token);
    // Rotation commits and its notification arrives while the read is still under way.
    h.remove(record(token));
    h.auth.forget('h1');
    release();
    assert.equal(await status(pending), 200, 'the request concurrent with the rotation may pass');
    assert.equal(await status(h.auth.authenticate(token)), 401, 'the next one may not');
  });

  it('a store read slower than the timeout counts as unreachable', async () => {
    const h = harness({ lookupTimeoutMs: 20 });
    const release = h.hold();
    assert.equal(await status(h.auth.authenticate(generateToken())), 503);
    release();
  });

  it('evicts the oldest record beyond maxEntries', async () => {
    const h = harness({ maxEntries: 2 });
    const tokens = [generateToken(), generateToken(), generateToken()];
    tokens.forEach((tk, i) => h.put(record(tk, { hash: `h${i}` })));
    for (const tk of tokens) await h.auth.authenticate(tk);
    assert.equal(h.auth.size(), 2);
    await h.auth.authenticate(tokens[2] ?? '');
    assert.equal(h.reads(), 3, 'the newest stays cached');
  });

  it('authenticateNow decides a cached, trusted key at once and defers everything else to authenticate', async () => {
    const h = harness();
    const token = generateToken();
    const disabled = generateToken();
    h.put(record(token));
    h.put(record(disabled, { hash: 'h2', disabled: true }));
    const first = h.auth.authenticateNow(token);
    assert.ok(first instanceof Promise, 'not cached yet: the store is read');
    assert.equal((await first).hash, 'h1');
    const now = h.auth.authenticateNow(token);
    assert.ok(!(now instanceof Promise) && !(now instanceof Error), 'cached: the record itself');
    assert.equal(now.hash, 'h1');
    assert.equal(h.reads(), 1);
    await status(h.auth.authenticate(disabled));
    const refused = h.auth.authenticateNow(disabled);
    assert.ok(isGatewayError(refused) && refused.status === 401, 'a cached disabled key: the refusal, not thrown');
    assert.equal(await status(Promise.resolve(h.auth.authenticateNow(generateToken()))), 401, 'an unknown token');
    h.auth.forget('h1');
    const again = h.auth.authenticateNow(token);
    assert.ok(again instanceof Promise, 'after a change for the key: read again');
    assert.equal(await status(again), 200);
    h.setState('down');
    h.advance(5_000);
    const stale = h.auth.authenticateNow(disabled);
    assert.ok(stale instanceof Promise, 'stale without a live feed: read again');
    assert.equal(await status(stale), 401);
    assert.equal(h.reads(), 5, 'one read per decision not taken from memory');
  });
});
