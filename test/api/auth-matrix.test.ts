import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { generateToken } from '../../src/domain/keys/tokens.js';
import { call, startTestServer, type TestServer } from '../support/server.js';

/** Every management route, with a body that would be valid, so only the key decides. */
const MANAGEMENT_ROUTES: [string, string, unknown?][] = [
  ['GET', '/keys'],
  ['POST', '/keys', { name: 'x' }],
  ['GET', '/keys/abc'],
  ['PATCH', '/keys/abc', { name: 'y' }],
  ['DELETE', '/keys/abc'],
  ['POST', '/keys/abc/rotate'],
  ['GET', '/organization/members'],
  ['POST', '/organization/members', { email: 'm@example.com' }],
  ['GET', '/workspaces'],
  ['POST', '/workspaces', { name: 'n', slug: 'n' }],
  ['GET', '/workspaces/default'],
  ['PATCH', '/workspaces/default', { name: 'n' }],
  ['DELETE', '/workspaces/some'],
  ['GET', '/workspaces/default/members'],
  ['POST', '/workspaces/default/members/add', { user_ids: ['user_1'] }],
  ['POST', '/workspaces/default/members/remove', { user_ids: ['user_1'] }],
];

describe('authentication matrix', () => {
  let server: TestServer;
  let apiKey = '';

  before(async () => {
    // This suite fails authentication hundreds of times from one address on purpose.
    server = await startTestServer({ dialect: 'sqlite', env: { SWITCHYARD_AUTH_FAILURE_LIMIT: '0' } });
    const res = await call<{ key: string }>(server, 'POST', '/keys', {
      token: server.managementToken,
      body: { name: 'api' },
    });
    apiKey = res.body.key;
  });
  after(() => server.close());

  for (const [method, path, body] of MANAGEMENT_ROUTES) {
    it(`${method} ${path}: 401 without a header, 401 for an unknown token, 403 for an API key`, async () => {
      const missing = await call<{ error: { code: number; message: string } }>(server, method, path, { body });
      assert.equal(missing.status, 401);
      assert.deepEqual(missing.body.error, { code: 401, message: 'Missing Authentication header', metadata: null });
      assert.equal((await call(server, method, path, { body, token: generateToken() })).status, 401);
      assert.equal((await call(server, method, path, { body, token: 'garbage' })).status, 401);
      assert.equal((await call(server, method, path, { body, headers: { authorization: 'Basic abc' } })).status, 401);
      const forbidden = await call<{ error: { code: number; message: string } }>(server, method, path, {
        body,
        token: apiKey,
      });
      assert.equal(forbidden.status, 403);
      assert.equal(forbidden.body.error.message, 'Only management keys can perform this operation');
    });
  }

  it('GET /key accepts either kind of key and no anonymous caller', async () => {
    assert.equal((await call(server, 'GET', '/key', { token: apiKey })).status, 200);
    assert.equal((await call(server, 'GET', '/key', { token: server.managementToken })).status, 200);
    assert.equal((await call(server, 'GET', '/key')).status, 401);
  });

  it('/health needs no key', async () => {
    const res = await fetch(`${server.url}/health`);
    assert.equal(res.status, 200);
  });
});
