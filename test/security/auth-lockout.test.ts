// A valid credential is never refused for someone else's failures: after a flood of bogus tokens
// from the same address, every stored key still works (new, uncached, after a restart, created by
// the CLI), only failing credentials get 429, and the bogus tokens cost no store read.
import assert from 'node:assert/strict';
import { after, before, describe, it, test } from 'node:test';
import { freshPgDatabase, pgUrlOrSkip } from '../harness/env.js';
import { generateToken } from '../../src/domain/keys/tokens.js';
import { runCli } from '../support/cli.js';
import { call, dialects, startTestServer, type TestServer } from '../support/server.js';

const BOGUS = 25;
// The 429s of a throttled address are answered at once here (the delay slows looping clients).
const env = { SWITCHYARD_AUTH_FAILURE_DELAY_MS: '0' };

/** Counts every call into the server's key repository (each one is a store query). */
function countKeyReads(server: TestServer): { reads(): number } {
  const keys = server.running.services.store.keys as unknown as Record<string, unknown>;
  let reads = 0;
  for (const name of Object.keys(keys)) {
    const method = keys[name];
    if (typeof method !== 'function') continue;
    keys[name] = (...args: unknown[]): unknown => {
      reads += 1;
      return (method as (...a: unknown[]) => unknown).apply(keys, args);
    };
  }
  return { reads: () => reads };
}

async function flood(server: TestServer, count = BOGUS): Promise<number[]> {
  const statuses: number[] = [];
  for (let i = 0; i < count; i += 1)
    statuses.push((await call(server, 'GET', '/key', { token: generateToken() })).status);
  return statuses;
}

async function newKey(server: TestServer): Promise<{ token: string; hash: string }> {
  const res = await call<{ key: string; data: { hash: string } }>(server, 'POST', '/keys', {
    token: server.managementToken,
    body: { name: 'lockout' },
  });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return { token: res.body.key, hash: res.body.data.hash };
}

const keyStatus = async (server: TestServer, token: string) => (await call(server, 'GET', '/key', { token })).status;

for (const dialect of dialects()) {
  describe(`no valid credential is refused by the throttle (${dialect})`, () => {
    let server: TestServer;
    let counter: { reads(): number };
    before(async () => {
      server = await startTestServer({ dialect, env });
      counter = countKeyReads(server);
    });
    after(() => server.close());

    it('fresh server: 25 bogus tokens, then the bootstrap management key’s first request is 200', async () => {
      const statuses = await flood(server);
      assert.deepEqual(statuses.slice(0, 20), Array<number>(20).fill(401));
      assert.deepEqual(statuses.slice(20), Array<number>(5).fill(429), 'the address is over its limit');
      assert.equal(counter.reads(), 0, 'no store read for a bogus token while the change feed is live');
      const first = await call(server, 'GET', '/keys', { token: server.managementToken });
      assert.equal(first.status, 200, 'the bootstrap key was never verified by this process before');
    });

    it('a failing credential from the throttled address gets 429 with Retry-After in the envelope', async () => {
      const refused = await call<{ error: { code: number; message: string } }>(server, 'GET', '/models', {
        token: generateToken(),
      });
      assert.equal(refused.status, 429);
      assert.equal(refused.body.error.code, 429);
      assert.ok(Number(refused.headers.get('retry-after')) >= 1);
      assert.equal((await call(server, 'GET', '/key', { token: null })).status, 429, 'no credential at all');
    });

    it('a key created after the flood works on its first call; an old token after rotation never does', async () => {
      const key = await newKey(server);
      assert.equal(await keyStatus(server, key.token), 200);
      const rotated = await call<{ key: string }>(server, 'POST', `/keys/${key.hash}/rotate`, {
        token: server.managementToken,
      });
      assert.equal(rotated.status, 200);
      const old = await keyStatus(server, key.token);
      assert.ok(old === 429 || old === 401, `old token answered ${old}`);
      assert.equal(await keyStatus(server, rotated.body.key), 200, 'the new token');
      const disabled = await newKey(server);
      const patched = await call(server, 'PATCH', `/keys/${disabled.hash}`, {
        token: server.managementToken,
        body: { disabled: true },
      });
      assert.equal(patched.status, 200);
      assert.equal(await keyStatus(server, disabled.token), 429, 'a disabled key fails, so it is throttled');
    });

    it('a key the CLI created (another process on the same database) works from the throttled address', async () => {
      const created = await runCli(['keys', 'create-management', '--name', 'from-cli'], {
        SWITCHYARD_DATABASE_URL: server.db.url,
      });
      assert.equal(created.code, 0, created.err);
      const token = /token: (\S+)/.exec(created.out)?.[1] ?? '';
      assert.equal((await call(server, 'GET', '/keys', { token })).status, 200);
    });

    it('50 more bogus tokens from the throttled address: still no store read', async () => {
      const before = counter.reads();
      await flood(server, 50);
      assert.equal(counter.reads() - before, 0);
    });

    it('restart with a throttled address: every existing key still works', async () => {
      const keys = [await newKey(server), await newKey(server)];
      await server.stop();
      server = await startTestServer({ dialect, env, db: server.db, managementToken: server.managementToken });
      counter = countKeyReads(server);
      const statuses = await flood(server);
      assert.equal(statuses.at(-1), 429);
      assert.equal(counter.reads(), 0);
      assert.equal((await call(server, 'GET', '/keys', { token: server.managementToken })).status, 200);
      for (const key of keys) assert.equal(await keyStatus(server, key.token), 200);
    });
  });
}

test('two replicas on one PostgreSQL: a key created on A works on its first call on B, B’s address throttled', async (t) => {
  if (pgUrlOrSkip(t) === null) return;
  const db = await freshPgDatabase('lockout_replicas');
  const shared = { url: db.url, dispose: () => Promise.resolve() };
  // Revalidation far away: only the change feed can tell B about the new key.
  const replicaEnv = { ...env, SWITCHYARD_KEY_CACHE_REVALIDATE_MS: '600000' };
  const a = await startTestServer({ dialect: 'postgres', db: shared, env: replicaEnv });
  const b = await startTestServer({
    dialect: 'postgres',
    db: shared,
    env: replicaEnv,
    managementToken: a.managementToken,
  });
  t.after(async () => {
    await a.stop();
    await b.stop();
    await db.drop();
  });
  const counter = countKeyReads(b);
  assert.equal((await flood(b)).at(-1), 429, 'B refuses this address’s failures');
  assert.equal(counter.reads(), 0, 'and read nothing for them');
  for (let i = 0; i < 3; i += 1) {
    const key = await newKey(a);
    assert.equal(await keyStatus(b, key.token), 200, 'the first call on B');
    const rotated = await call<{ key: string }>(a, 'POST', `/keys/${key.hash}/rotate`, { token: a.managementToken });
    assert.equal(await keyStatus(b, rotated.body.key), 200, 'the rotated token on B');
    assert.notEqual(await keyStatus(b, key.token), 200, 'the old token on B');
  }
  assert.equal((await call(b, 'GET', '/keys', { token: b.managementToken })).status, 200);
});
