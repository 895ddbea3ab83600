import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { MutableClock } from '../support/clock.js';
import { call, dialects, startTestServer, type TestServer } from '../support/server.js';

const KEY_FIELDS = [
  'byok_usage',
  'byok_usage_daily',
  'byok_usage_monthly',
  'byok_usage_weekly',
  'created_at',
  'creator_user_id',
  'disabled',
  'expires_at',
  'external_user',
  'hash',
  'include_byok_in_limit',
  'label',
  'limit',
  'limit_remaining',
  'limit_reset',
  'name',
  'updated_at',
  'usage',
  'usage_daily',
  'usage_monthly',
  'usage_weekly',
  'workspace_id',
];

interface KeyBody {
  data: Record<string, unknown> & { hash: string; name: string; limit: number | null; limit_reset: string | null };
  key: string;
}

for (const dialect of dialects()) {
  describe(`API keys (${dialect})`, () => {
    let server: TestServer;
    const clock = new MutableClock();
    const mgmt = () => server.managementToken;

    before(async () => {
      server = await startTestServer({ dialect, clock });
    });
    after(() => server.close());

    it('creates an API key with every field of the key object and a token shown once', async () => {
      const res = await call<KeyBody>(server, 'POST', '/keys', {
        token: mgmt(),
        body: { name: 'ci', limit: 25, limit_reset: 'monthly' },
      });
      assert.equal(res.status, 201);
      assert.match(res.body.key, /^sk-sy-v1-[0-9a-f]{64}$/);
      assert.deepEqual(Object.keys(res.body.data), KEY_FIELDS);
      assert.equal(res.body.data.limit, 25);
      assert.equal(res.body.data.limit_remaining, 25);
      assert.equal(res.body.data.usage, 0);
      assert.equal(res.body.data.disabled, false);
      assert.ok(!JSON.stringify(res.body.data).includes(res.body.key.slice(12)), 'token never inside data');
      const got = await call<KeyBody>(server, 'GET', `/keys/${res.body.data.hash}`, { token: mgmt() });
      assert.equal(got.status, 200);
      assert.equal(got.body.data.name, 'ci');
      assert.equal((got.body as unknown as Record<string, unknown>).key, undefined);
    });

    it('rotates: same hash, name, limits; the old token is refused on the very next request', async () => {
      const created = await call<KeyBody>(server, 'POST', '/keys', {
        token: mgmt(),
        body: { name: 'rot', limit: 5, limit_reset: 'daily' },
      });
      const oldToken = created.body.key;
      assert.equal((await call(server, 'GET', '/key', { token: oldToken })).status, 200);
      const rotated = await call<KeyBody>(server, 'POST', `/keys/${created.body.data.hash}/rotate`, { token: mgmt() });
      assert.equal(rotated.status, 200);
      assert.equal(rotated.body.data.hash, created.body.data.hash);
      assert.equal(rotated.body.data.name, 'rot');
      assert.equal(rotated.body.data.limit, 5);
      assert.equal(rotated.body.data.limit_reset, 'daily');
      assert.notEqual(rotated.body.key, oldToken);
      const refused = await call(server, 'GET', '/key', { token: oldToken });
      assert.equal(refused.status, 401);
      assert.deepEqual(Object.keys(refused.body), ['error']);
      assert.equal((await call(server, 'GET', '/key', { token: rotated.body.key })).status, 200);
    });

    it('refuses to rotate or create management keys through the API', async () => {
      const keys = await server.running.services.store.keys.listManagement();
      const first = keys[0];
      assert.ok(first !== undefined);
      const res = await call(server, 'POST', `/keys/${first.hash}/rotate`, { token: mgmt() });
      assert.equal(res.status, 403);
      assert.equal((await call(server, 'GET', `/keys/${first.hash}`, { token: mgmt() })).status, 404);
      assert.equal((await call(server, 'POST', '/keys/0000/rotate', { token: mgmt() })).status, 404);
    });

    it('updates, disables (401 at once) and re-enables a key', async () => {
      const created = await call<KeyBody>(server, 'POST', '/keys', { token: mgmt(), body: { name: 'dis' } });
      const hash = created.body.data.hash;
      const patched = await call<KeyBody>(server, 'PATCH', `/keys/${hash}`, {
        token: mgmt(),
        body: { name: 'renamed', limit: null, disabled: true },
      });
      assert.equal(patched.status, 200);
      assert.equal(patched.body.data.name, 'renamed');
      assert.equal(patched.body.data.disabled, true);
      assert.ok(typeof patched.body.data.updated_at === 'string');
      assert.equal((await call(server, 'GET', '/key', { token: created.body.key })).status, 401);
      const listed = await call<{ data: { hash: string }[] }>(server, 'GET', '/keys', { token: mgmt() });
      assert.ok(!listed.body.data.some((k) => k.hash === hash), 'disabled keys hidden by default');
      const withDisabled = await call<{ data: { hash: string }[] }>(server, 'GET', '/keys?include_disabled=true', {
        token: mgmt(),
      });
      assert.ok(withDisabled.body.data.some((k) => k.hash === hash));
      await call(server, 'PATCH', `/keys/${hash}`, { token: mgmt(), body: { disabled: false } });
      assert.equal((await call(server, 'GET', '/key', { token: created.body.key })).status, 200);
    });

    it('deletes a key: 200 {deleted:true}, then 404 and 401', async () => {
      const created = await call<KeyBody>(server, 'POST', '/keys', { token: mgmt(), body: { name: 'del' } });
      const res = await call(server, 'DELETE', `/keys/${created.body.data.hash}`, { token: mgmt() });
      assert.equal(res.status, 200);
      assert.deepEqual(res.body, { deleted: true });
      assert.equal((await call(server, 'GET', `/keys/${created.body.data.hash}`, { token: mgmt() })).status, 404);
      assert.equal((await call(server, 'DELETE', `/keys/${created.body.data.hash}`, { token: mgmt() })).status, 404);
      assert.equal((await call(server, 'GET', '/key', { token: created.body.key })).status, 401);
    });

    it('enforces expires_at at authentication', async () => {
      const expiresAt = new Date(clock.now().getTime() + 60_000).toISOString();
      const created = await call<KeyBody>(server, 'POST', '/keys', {
        token: mgmt(),
        body: { name: 'exp', expires_at: expiresAt },
      });
      assert.equal(created.status, 201);
      assert.equal((await call(server, 'GET', '/key', { token: created.body.key })).status, 200);
      clock.advance(61_000);
      const res = await call<{ error: { message: string } }>(server, 'GET', '/key', { token: created.body.key });
      assert.equal(res.status, 401);
      assert.match(res.body.error.message, /expired/);
      const past = await call(server, 'POST', '/keys', {
        token: mgmt(),
        body: { name: 'p', expires_at: '2001-01-01T00:00:00Z' },
      });
      assert.equal(past.status, 400);
    });

    it('GET /key describes the calling key in the CurrentKey shape', async () => {
      const created = await call<KeyBody>(server, 'POST', '/keys', { token: mgmt(), body: { name: 'cur', limit: 3 } });
      const res = await call<{ data: Record<string, unknown> }>(server, 'GET', '/key', { token: created.body.key });
      assert.equal(res.status, 200);
      assert.equal(res.body.data.is_management_key, false);
      assert.equal(res.body.data.limit_remaining, 3);
      assert.equal(res.body.data.hash, undefined);
      const own = await call<{ data: Record<string, unknown> }>(server, 'GET', '/key', { token: mgmt() });
      assert.equal(own.body.data.is_management_key, true);
    });

    it('validates key bodies with 400s that name the field', async () => {
      const cases: [unknown, string][] = [
        [{}, 'name'],
        [{ name: '' }, 'name'],
        [{ name: 'x', limit: -1 }, 'limit'],
        [{ name: 'x', limit: '5' }, 'limit'],
        [{ name: 'x', limit_reset: 'hourly' }, 'limit_reset'],
        [{ name: 'x', expires_at: '2030-01-01T10:00' }, 'expires_at'],
        [{ name: 'x', bogus: 1 }, 'bogus'],
      ];
      for (const [body, field] of cases) {
        const res = await call<{ error: { code: number; message: string; metadata: { field: string } } }>(
          server,
          'POST',
          '/keys',
          { token: mgmt(), body },
        );
        assert.equal(res.status, 400, JSON.stringify(body));
        assert.equal(res.body.error.code, 400);
        assert.equal(res.body.error.metadata.field, field, res.body.error.message);
      }
      const unknownWs = await call(server, 'POST', '/keys', {
        token: mgmt(),
        body: { name: 'x', workspace_id: 'nope' },
      });
      assert.equal(unknownWs.status, 404);
    });

    it('keeps every key across a restart', async () => {
      const created = await call<KeyBody>(server, 'POST', '/keys', { token: mgmt(), body: { name: 'persist' } });
      await server.stop();
      server = await startTestServer({ dialect, db: server.db, managementToken: server.managementToken, clock });
      const got = await call<KeyBody>(server, 'GET', `/keys/${created.body.data.hash}`, { token: mgmt() });
      assert.equal(got.status, 200);
      assert.equal((await call(server, 'GET', '/key', { token: created.body.key })).status, 200);
    });
  });
}
