import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { call, startTestServer, type TestServer } from '../support/server.js';

type Err = { error: { code: number; message: string; metadata: Record<string, unknown> | null } };

describe('error envelope and input hygiene', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer({ dialect: 'sqlite', env: { SWITCHYARD_BODY_LIMIT_BYTES: '4096' } });
  });
  after(() => server.close());

  const expectEnvelope = (res: { status: number; body: unknown }, status: number) => {
    assert.equal(res.status, status);
    const body = res.body as Err;
    assert.equal(body.error.code, status);
    assert.equal(typeof body.error.message, 'string');
    assert.ok(!JSON.stringify(body).includes('    at '), 'no stack trace');
  };

  it('malformed JSON is a 400', async () => {
    expectEnvelope(await call(server, 'POST', '/keys', { token: server.managementToken, raw: '{"name": ' }), 400);
    expectEnvelope(await call(server, 'POST', '/keys', { token: server.managementToken, raw: '[1,2' }), 400);
  });

  it('a JSON body that is not an object is a 400', async () => {
    expectEnvelope(await call(server, 'POST', '/keys', { token: server.managementToken, raw: '"just a string"' }), 400);
    expectEnvelope(await call(server, 'POST', '/keys', { token: server.managementToken, raw: 'null' }), 400);
  });

  it('a body over the configured limit is a 413', async () => {
    const res = await call(server, 'POST', '/keys', {
      token: server.managementToken,
      body: { name: 'x'.repeat(10_000) },
    });
    expectEnvelope(res, 413);
  });

  it('a non-JSON content type is a 4xx in the envelope', async () => {
    const res = await call(server, 'POST', '/keys', {
      token: server.managementToken,
      raw: 'name=x',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    assert.ok(res.status === 415 || res.status === 400);
    expectEnvelope(res, res.status);
  });

  it('unknown routes are 404 in the envelope', async () => {
    expectEnvelope(await call(server, 'GET', '/definitely/not/here'), 404);
    expectEnvelope(await call(server, 'PUT', '/keys'), 404);
  });

  it('out-of-range query values are 400 naming the field', async () => {
    for (const q of ['limit=0', 'limit=101', 'offset=-1', 'limit=abc']) {
      const res = await call<Err>(server, 'GET', `/workspaces?${q}`, { token: server.managementToken });
      expectEnvelope(res, 400);
      assert.equal(res.body.error.metadata?.field, q.split('=')[0]);
    }
  });

  it('__proto__ in a body cannot pollute objects', async () => {
    const res = await call(server, 'POST', '/keys', {
      token: server.managementToken,
      raw: '{"name":"p","__proto__":{"admin":true}}',
    });
    assert.equal(res.status, 201);
    assert.equal(({} as Record<string, unknown>).admin, undefined);
  });

  it('serves an OpenAPI 3.1 document built from the route schemas', async () => {
    const res = await call<{ openapi: string; paths: Record<string, Record<string, unknown>> }>(
      server,
      'GET',
      '/openapi.json',
    );
    assert.equal(res.status, 200);
    assert.equal(res.body.openapi, '3.1.0');
    for (const path of [
      '/keys',
      '/keys/{hash}/rotate',
      '/workspaces/{id}/members/remove',
      '/organization/members',
      '/key',
    ]) {
      assert.ok(res.body.paths[path] !== undefined, `${path} documented`);
    }
  });
});
