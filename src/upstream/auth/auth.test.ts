import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { UpstreamHttpClient, type UpstreamCall } from '../http-client.js';
import { isUpstreamError } from '../upstream-error.js';
import { NO_AUTH, bearerAuth, headerKeyAuth, staticAuth, xApiKeyAuth } from './static.js';
import type { OutgoingRequest, UpstreamAuth } from './types.js';

/** The headers each request arrived with, and the body the signer saw, in order. */
const seen: IncomingHttpHeaders[] = [];
let server: Server;
let base = '';
const client = new UpstreamHttpClient();

before(async () => {
  server = createServer((req, res) => {
    seen.push(req.headers);
    req.resume();
    req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end('{}'));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

after(async () => {
  await client.close();
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

const headers = Object.freeze({ 'content-type': 'application/json', 'x-endpoint': 'e' });

function call(auth: UpstreamAuth, overrides: Partial<UpstreamCall> = {}): UpstreamCall {
  return {
    url: `${base}/v1/x?q=1`,
    headers,
    auth,
    body: '{"a":1}',
    providerId: 'p',
    apiKey: null,
    timeouts: { connectMs: 1000, firstByteMs: 1000, idleMs: 1000 },
    signal: new AbortController().signal,
    ...overrides,
  };
}

const request: OutgoingRequest = { method: 'POST', url: new URL('http://h/x'), headers: {}, body: null };

test('static schemes: bearer, x-api-key, a named header, none; no key is no credential', () => {
  assert.deepEqual(bearerAuth('k1').headersFor(request), { authorization: 'Bearer k1' });
  assert.deepEqual(xApiKeyAuth('k2').headersFor(request), { 'x-api-key': 'k2' });
  assert.deepEqual(headerKeyAuth('Api-Key', 'k3').headersFor(request), { 'api-key': 'k3' });
  assert.deepEqual(NO_AUTH.headersFor(request), {});
  assert.deepEqual(staticAuth('bearer', null).headersFor(request), {});
  assert.deepEqual(staticAuth('none', 'k').headersFor(request), {});
  assert.deepEqual(staticAuth('x-api-key', 'k').headersFor(request), { 'x-api-key': 'k' });
});

test('the credential is asked per request and sent; the endpoint headers stay without it', async () => {
  let n = 0;
  const requests: OutgoingRequest[] = [];
  const rotating: UpstreamAuth = {
    headersFor(req) {
      requests.push(req);
      n += 1;
      return { authorization: `Bearer token-${n}` };
    },
  };
  seen.length = 0;
  for (let i = 0; i < 2; i++) (await client.send(call(rotating))).discard();
  assert.deepEqual(
    seen.map((h) => h.authorization),
    ['Bearer token-1', 'Bearer token-2'],
  );
  assert.equal(seen[0]?.['x-endpoint'], 'e');
  assert.equal('authorization' in headers, false);
  // What a signer reads: method, the parsed URL, the headers without the credential, the body.
  const first = requests[0];
  assert.equal(first?.method, 'POST');
  assert.equal(first?.url.pathname, '/v1/x');
  assert.equal(first?.url.search, '?q=1');
  assert.equal(first?.body, '{"a":1}');
  assert.equal(first?.headers.authorization, undefined);
  assert.equal(first?.headers['x-endpoint'], 'e');
});

test('a credential not held yet is awaited; the endpoint own header of the same name wins', async () => {
  seen.length = 0;
  const slow: UpstreamAuth = { headersFor: () => Promise.resolve({ authorization: 'Bearer later' }) };
  (await client.send(call(slow))).discard();
  assert.equal(seen[0]?.authorization, 'Bearer later');
  const own = Object.freeze({ ...headers, authorization: 'Bearer from-catalog' });
  (await client.send(call(bearerAuth('k'), { headers: own }))).discard();
  assert.equal(seen[1]?.authorization, 'Bearer from-catalog');
});

test('a credential that cannot be produced is a retryable upstream error naming the problem, nothing sent', async () => {
  seen.length = 0;
  for (const auth of [
    { headersFor: () => Promise.reject(new Error('token endpoint answered 500')) },
    {
      headersFor: (): Record<string, string> => {
        throw new Error('no credentials in the environment');
      },
    },
  ]) {
    const err: unknown = await client.send(call(auth)).then(
      () => assert.fail('expected a rejection'),
      (e: unknown) => e,
    );
    assert.ok(isUpstreamError(err));
    assert.equal(err.retryable, true);
    assert.equal(err.status, 502);
    assert.match(err.message, /credential unavailable: (token endpoint answered 500|no credentials)/);
  }
  assert.equal(seen.length, 0);
});
