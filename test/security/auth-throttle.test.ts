import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { generateToken } from '../../src/domain/keys/tokens.js';
import { call, dialects, startTestServer, type TestServer } from '../support/server.js';

for (const dialect of dialects()) {
  describe(`failed authentications are throttled per address (${dialect})`, () => {
    let server: TestServer;
    let apiKey: string;
    before(async () => {
      server = await startTestServer({
        dialect,
        env: { SWITCHYARD_AUTH_FAILURE_LIMIT: '5', SWITCHYARD_AUTH_FAILURE_WINDOW_MS: '60000' },
      });
      const created = await call<{ key: string }>(server, 'POST', '/keys', {
        token: server.managementToken,
        body: { name: 'throttle' },
      });
      assert.equal(created.status, 201);
      apiKey = created.body.key;
      assert.equal((await call(server, 'GET', '/key', { token: apiKey })).status, 200);
    });
    after(() => server.close());

    test('401 up to the limit, then 429 with Retry-After in the envelope; valid keys unaffected', async () => {
      for (let i = 0; i < 5; i += 1) {
        const res = await call(server, 'GET', '/key', { token: generateToken() });
        assert.equal(res.status, 401);
      }
      const refused = await call<{ error: { code: number; message: string } }>(server, 'GET', '/models', {
        token: generateToken(),
      });
      assert.equal(refused.status, 429);
      assert.equal(refused.body.error.code, 429);
      const retryAfter = Number(refused.headers.get('retry-after'));
      assert.ok(retryAfter >= 1 && retryAfter <= 60, `Retry-After ${retryAfter}`);
      const missing = await call(server, 'GET', '/key', { token: null });
      assert.equal(missing.status, 429, 'no credentials at all are refused too while throttled');

      assert.equal((await call(server, 'GET', '/key', { token: apiKey })).status, 200, 'a valid API key');
      const keys = await call(server, 'GET', '/keys', { token: server.managementToken });
      assert.equal(keys.status, 200, 'a valid management key');
    });
  });
}

for (const dialect of dialects()) {
  describe(`behind a proxy, failures count against each client (${dialect})`, () => {
    let server: TestServer;
    before(async () => {
      server = await startTestServer({
        dialect,
        env: { SWITCHYARD_AUTH_FAILURE_LIMIT: '3', SWITCHYARD_AUTH_FAILURE_DELAY_MS: '0', SWITCHYARD_TRUST_PROXY: '1' },
      });
    });
    after(() => server.close());

    const bogus = (forwardedFor: string) =>
      call(server, 'GET', '/key', { token: generateToken(), headers: { 'x-forwarded-for': forwardedFor } });

    test('one trusted hop: the address the proxy appended is the client, whatever came before it', async () => {
      for (let i = 0; i < 3; i += 1) assert.equal((await bogus('203.0.113.1')).status, 401);
      assert.equal((await bogus('203.0.113.1')).status, 429);
      assert.equal((await bogus('203.0.113.9, 203.0.113.1')).status, 429, 'a forged earlier entry changes nothing');
      assert.equal((await bogus('203.0.113.2')).status, 401, 'another client behind the same proxy');
      const keys = await call(server, 'GET', '/keys', {
        token: server.managementToken,
        headers: { 'x-forwarded-for': '203.0.113.1' },
      });
      assert.equal(keys.status, 200, 'a valid key from the throttled client');
    });
  });
}
