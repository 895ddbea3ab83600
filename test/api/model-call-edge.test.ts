import assert from 'node:assert/strict';
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { request } from 'node:http';
import { connect } from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { generateToken } from '../../src/domain/keys/tokens.js';
import type { FakeUpstream } from '../fake-upstream/index.js';
import { startGateway, type GatewayHarness } from '../support/gateway.js';
import { call } from '../support/server.js';

/**
 * The lean model-call edge (src/http/edge) against Fastify's: the same request sent with a
 * `Content-Length` (served by the lean edge) and with chunked framing (a body the lean edge leaves
 * to Fastify, which answers it through its own pipeline) must get the same status, headers and
 * body. Which edge answered is observed with an `onRequest` hook added to the app as Fastify
 * builds it (its initialization channel): only Fastify's pipeline runs it.
 */

interface Answer {
  status: number;
  /** Header names and values in the order written, without the per-connection and per-call ones. */
  headers: [string, string][];
  body: string;
  /** Whether Fastify's request pipeline answered it. */
  viaFastify: boolean;
}

type Line = Record<string, unknown> & { msg?: string; reqId?: string; call?: { request_id?: string } };

const PROMPT = 'the lean edge secret prompt';
const VARYING = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding', 'x-request-id', 'x-generation-id']);
const BODY_LIMIT = 4096;

/** Ids and times differ per call: masked so two answers to the same request compare equal. */
const masked = (body: string): string =>
  body
    .replace(/"(id|created|created_at|response_id|item_id)":("[^"]*"|\d+)/g, '"$1":"*"')
    .replace(/(gen|chatcmpl|msg|resp|cmpl)-[A-Za-z0-9_-]+/g, '$1-*');

describe('the lean model-call edge answers as Fastify does', () => {
  const lines: Line[] = [];
  let gw: GatewayHarness;
  let managementToken: string;
  let fake: FakeUpstream;
  let api: string;
  let apiKey: string;
  let handled = 0;
  // Every app built while this suite runs counts the requests Fastify's pipeline routes (an onRequest hook).
  const onInit = (message: unknown): void => {
    const { fastify } = message as { fastify: FastifyInstance };
    fastify.addHook('onRequest', (_request, _reply, done) => {
      handled += 1;
      done();
    });
  };

  /** One request over HTTP: `framing` 'length' (the lean edge reads it) or 'chunked' (left to Fastify). */
  const send = (
    path: string,
    options: { body?: string; token?: string | null; method?: string; framing?: 'length' | 'chunked'; type?: string },
  ): Promise<Answer> => {
    const before = handled;
    const headers: Record<string, string> = {};
    if (options.token !== null) headers.authorization = `Bearer ${options.token ?? apiKey}`;
    if (options.body !== undefined) headers['content-type'] = options.type ?? 'application/json';
    if (options.body !== undefined && options.framing !== 'chunked')
      headers['content-length'] = String(Buffer.byteLength(options.body));
    return new Promise((resolve, reject) => {
      const req = request(`${api}${path}`, { method: options.method ?? 'POST', headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const pairs: [string, string][] = [];
          for (let i = 0; i < res.rawHeaders.length; i += 2) {
            const name = (res.rawHeaders[i] ?? '').toLowerCase();
            if (!VARYING.has(name)) pairs.push([name, res.rawHeaders[i + 1] ?? '']);
          }
          const body = Buffer.concat(chunks).toString('utf8');
          resolve({ status: res.statusCode ?? 0, headers: pairs, body, viaFastify: handled > before });
        });
      });
      req.on('error', reject);
      if (options.body !== undefined) req.write(options.body);
      req.end();
    });
  };

  /** The request on both edges; asserts the answers agree and returns the lean edge's. */
  const sameOnBothEdges = async (
    path: string,
    options: { body: string; token?: string | null; type?: string },
    lean = true,
  ): Promise<Answer> => {
    const viaLean = await send(path, { ...options, framing: 'length' });
    const viaFastify = await send(path, { ...options, framing: 'chunked' });
    assert.equal(viaFastify.viaFastify, true, `${path}: chunked framing goes through Fastify`);
    assert.equal(viaLean.viaFastify, !lean, `${path}: ${lean ? 'served by the lean edge' : 'left to Fastify'}`);
    assert.equal(viaLean.status, viaFastify.status, `${path}: status`);
    assert.deepEqual(viaLean.headers, viaFastify.headers, `${path}: headers`);
    assert.equal(masked(viaLean.body), masked(viaFastify.body), `${path}: body`);
    return viaLean;
  };

  const chatBody = (extra: Record<string, unknown> = {}): string =>
    JSON.stringify({ model: 'openai/gpt-test', messages: [{ role: 'user', content: PROMPT }], ...extra });

  const metricCount = async (status: number): Promise<number> => {
    const res = await call<string>({ api }, 'GET', '/metrics', { token: managementToken });
    const line = res.body
      .split('\n')
      .find(
        (l) =>
          l.startsWith('switchyard_http_requests_total{') &&
          l.includes('route="/api/v1/chat/completions"') &&
          l.includes(`status="${status}"`),
      );
    return line === undefined ? 0 : Number(line.split(' ').at(-1));
  };

  before(async () => {
    subscribe('fastify.initialization', onInit);
    const stream = { write: (line: string) => void lines.push(JSON.parse(line) as Line) };
    gw = await startGateway({
      dialect: 'sqlite',
      logger: { level: 'info', stream },
      env: {
        SWITCHYARD_BODY_LIMIT_BYTES: String(BODY_LIMIT),
        SWITCHYARD_AUTH_FAILURE_LIMIT: '3',
        SWITCHYARD_AUTH_FAILURE_DELAY_MS: '20',
      },
    });
    ({ api, managementToken } = gw.server);
    fake = gw.fake;
    apiKey = gw.apiKey;
  });
  after(async () => {
    unsubscribe('fastify.initialization', onInit);
    await gw.close();
  });

  it('serves a JSON call with a trailing slash and a query string as Fastify does', async () => {
    for (const path of ['/chat/completions', '/chat/completions/', '/chat/completions?trace=1']) {
      const answer = await sameOnBothEdges(path, { body: chatBody() });
      assert.equal(answer.status, 200);
      assert.ok(answer.headers.some(([name]) => name === 'content-length'));
    }
  });

  it('serves a streamed call, /messages, /completions, /responses and /embeddings as Fastify does', async () => {
    assert.equal((await sameOnBothEdges('/chat/completions', { body: chatBody({ stream: true }) })).status, 200);
    const messages = JSON.stringify({
      model: 'openai/gpt-test',
      max_tokens: 50,
      messages: [{ role: 'user', content: PROMPT }],
    });
    assert.equal((await sameOnBothEdges('/messages', { body: messages })).status, 200);
    const completion = JSON.stringify({ model: 'openai/gpt-test', prompt: PROMPT });
    assert.equal((await sameOnBothEdges('/completions', { body: completion })).status, 200);
    const responses = JSON.stringify({ model: 'openai/gpt-test', input: PROMPT, store: false });
    assert.equal((await sameOnBothEdges('/responses', { body: responses })).status, 200);
  });

  it('refuses malformed JSON, too deep JSON and a schema violation in the same envelope (and Anthropic shape on /messages)', async () => {
    const malformed = await sameOnBothEdges('/chat/completions', { body: '{"model":' });
    assert.equal(malformed.status, 400);
    assert.match(malformed.body, /Malformed JSON in request body/);
    const deep = await sameOnBothEdges('/chat/completions', { body: `{"x":${'['.repeat(70)}${']'.repeat(70)}}` });
    assert.equal(deep.status, 400);
    assert.match(deep.body, /nests deeper than 64 levels/);
    const invalid = await sameOnBothEdges('/chat/completions', { body: JSON.stringify({ model: 'openai/gpt-test' }) });
    assert.equal(invalid.status, 400);
    assert.match(invalid.body, /messages is required/);
    const anthropic = await sameOnBothEdges('/messages', { body: JSON.stringify({ model: 'x' }) });
    assert.equal(anthropic.status, 400);
    assert.match(anthropic.body, /^\{"type":"error"/);
    const unknownModel = await sameOnBothEdges('/chat/completions', {
      body: JSON.stringify({ model: 'nobody/none', messages: [{ role: 'user', content: 'x' }] }),
    });
    assert.ok(unknownModel.status >= 400 && unknownModel.status < 500);
  });

  it('reads the JSON content type in the spellings Fastify reads it', async () => {
    for (const type of [
      'application/json; charset=utf-8',
      'application/json;charset=utf-8',
      'Application/JSON; charset=UTF-8',
    ])
      assert.equal((await sameOnBothEdges('/chat/completions', { body: chatBody(), type })).status, 200, type);
  });

  it('drops a __proto__ key as Fastify does', async () => {
    const body = `{"__proto__":{"polluted":true},"model":"openai/gpt-test","messages":[{"role":"user","content":"x"}]}`;
    assert.equal((await sameOnBothEdges('/chat/completions', { body })).status, 200);
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
  });

  it('leaves what it does not read to Fastify: another type, an empty or oversized body, another method', async () => {
    const xml = await sameOnBothEdges('/chat/completions', { body: chatBody(), type: 'application/xml' }, false);
    assert.equal(xml.status, 415);
    const text = await sameOnBothEdges('/chat/completions', { body: chatBody(), type: 'text/plain' }, false);
    assert.equal(text.status, 400);
    const empty = await sameOnBothEdges('/chat/completions', { body: '' }, false);
    assert.equal(empty.status, 400);
    const big = chatBody({ user: 'x'.repeat(BODY_LIMIT) });
    const oversized = await sameOnBothEdges('/chat/completions', { body: big }, false);
    assert.equal(oversized.status, 413);
    const get = await send('/chat/completions', { method: 'GET' });
    assert.equal(get.status, 404);
    assert.match(get.body, /"code":404/);
  });

  it('writes one log line per call: the call-log line, or one "model call refused" line; never the prompt', async () => {
    const from = lines.length;
    const ok = await send('/chat/completions?q=secret', { body: chatBody() });
    const refused = await send('/chat/completions?q=secret', { body: JSON.stringify({ model: 'openai/gpt-test' }) });
    assert.equal(ok.viaFastify || refused.viaFastify, false);
    for (let i = 0; i < 100 && lines.length < from + 2; i++) await new Promise((r) => setTimeout(r, 10));
    await new Promise((r) => setTimeout(r, 50));
    const written = lines.slice(from);
    assert.equal(written.length, 2, JSON.stringify(written));
    assert.equal(written.filter((l) => l.msg === 'model call').length, 1);
    const line = written.find((l) => l.msg === 'model call refused');
    assert.ok(line !== undefined);
    assert.equal(line.path, '/api/v1/chat/completions');
    assert.equal(line.status, 400);
    assert.equal(line.method, 'POST');
    assert.match(String(line.reqId), /^req_/);
    assert.ok(!JSON.stringify(written).includes(PROMPT) && !JSON.stringify(written).includes('secret'));
  });

  it('counts the call in the route metrics, with its status', async () => {
    const [ok, refused] = [await metricCount(200), await metricCount(400)];
    assert.equal((await send('/chat/completions', { body: chatBody() })).viaFastify, false);
    assert.equal((await send('/chat/completions', { body: '{' })).viaFastify, false);
    await new Promise((r) => setTimeout(r, 20));
    assert.equal(await metricCount(200), ok + 1);
    assert.equal(await metricCount(400), refused + 1);
  });

  it('aborts the upstream call when the client goes away mid-stream', async () => {
    fake.reset();
    fake.queue('chunk-delay-150');
    const before = handled;
    await new Promise<void>((resolve, reject) => {
      const body = chatBody({ stream: true, provider: { allow_fallbacks: false } });
      const req = request(
        `${api}/chat/completions`,
        {
          method: 'POST',
          headers: {
            authorization: `Bearer ${apiKey}`,
            'content-type': 'application/json',
            'content-length': String(Buffer.byteLength(body)),
          },
        },
        (res) => {
          res.once('data', () => {
            req.destroy();
            resolve();
          });
        },
      );
      req.on('error', () => undefined);
      req.end(body);
      setTimeout(() => reject(new Error('no data')), 5000).unref();
    });
    assert.equal(handled, before, 'served by the lean edge');
    const upstream = fake.requests[0];
    assert.ok(upstream !== undefined);
    await upstream.closed;
    assert.equal(upstream.closedEarly, true);
  });

  it('refuses bad keys through Fastify with the throttle; a valid key passes from a throttled address', async () => {
    const missing = await send('/chat/completions', { body: chatBody(), token: null });
    assert.equal(missing.status, 401);
    assert.equal(missing.viaFastify, true);
    const invalid = await send('/chat/completions', { body: chatBody(), token: generateToken() });
    assert.equal(invalid.status, 401);
    const mgmt = await send('/chat/completions', { body: chatBody(), token: managementToken });
    assert.equal(mgmt.status, 403);
    const revokedKey = await call<{ key: string; data: { hash: string } }>({ api }, 'POST', '/keys', {
      token: managementToken,
      body: { name: 'revoked' },
    });
    await call({ api }, 'DELETE', `/keys/${revokedKey.body.data.hash}`, { token: managementToken });
    const revoked = await send('/chat/completions', { body: chatBody(), token: revokedKey.body.key });
    assert.equal(revoked.status, 401);
    assert.equal(revoked.viaFastify, true);
    // Three failures: the address is throttled now.
    const throttled = await send('/chat/completions', { body: chatBody(), token: generateToken() });
    assert.equal(throttled.status, 429);
    assert.ok(throttled.headers.some(([name]) => name === 'retry-after'));
    const valid = await send('/chat/completions', { body: chatBody() });
    assert.equal(valid.status, 200, 'a valid key is served while its address is throttled');
    assert.equal(valid.viaFastify, true, 'by Fastify, which knows the address');
  });
});

describe('the lean model-call edge while the server closes', () => {
  let gw: GatewayHarness;
  before(async () => {
    gw = await startGateway({ dialect: 'sqlite' });
  });
  after(() => gw.close());
  const chat = (extra: Record<string, unknown> = {}): string =>
    JSON.stringify({ model: 'openai/gpt-test', messages: [{ role: 'user', content: 'x' }], ...extra });

  it('answers 503 to a request arriving while the server closes', async () => {
    gw.fake.queue('chunk-delay-100');
    const body = chat({ stream: true });
    const head = (b: string) =>
      `POST /api/v1/chat/completions HTTP/1.1\r\nhost: x\r\nauthorization: Bearer ${gw.apiKey}\r\n` +
      `content-type: application/json\r\ncontent-length: ${Buffer.byteLength(b)}\r\n\r\n${b}`;
    const { port } = new URL(gw.server.url);
    const socket = connect(Number(port), '127.0.0.1');
    let received = '';
    socket.on('data', (chunk: Buffer) => (received += chunk.toString('utf8')));
    const closed = new Promise((resolve) => socket.on('close', resolve));
    socket.write(head(body));
    for (let i = 0; i < 200 && !received.includes('\r\n\r\n'); i++) await new Promise((r) => setTimeout(r, 5));
    const closing = gw.server.running.close();
    socket.write(head(chat()));
    await closed;
    await closing;
    assert.match(received, /^HTTP\/1\.1 200/);
    assert.match(received, /HTTP\/1\.1 503 Service Unavailable\r\n/);
    assert.match(received, /\{"error":"Service Unavailable","message":"Service Unavailable","statusCode":503\}/);
  });
});
