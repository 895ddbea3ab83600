import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { loadServerConfig } from '../../src/config/env.js';
import { generateToken } from '../../src/domain/keys/tokens.js';
import { startServer, type RunningServer } from '../../src/server.js';
import { startFakeUpstream, type FakeUpstream } from '../fake-upstream/index.js';
import { tempSqlitePath } from '../harness/env.js';
import { call } from '../support/server.js';
import { testCatalog } from '../support/gateway.js';

type Line = Record<string, unknown> & { msg?: string; reqId?: string; call?: { request_id?: string } };

const PROMPT = 'the secret prompt text';

describe('request logs: one line per model call', () => {
  const lines: Line[] = [];
  const sqlite = tempSqlitePath();
  const dir = mkdtempSync(join(tmpdir(), 'switchyard-logs-'));
  const managementToken = generateToken();
  let fake: FakeUpstream;
  let running: RunningServer;
  let server: { api: string };
  let apiKey: string;

  /** Lines about one request: Fastify's (bound reqId), the compact line, the call-log line. */
  const about = (requestId: string) => lines.filter((l) => l.reqId === requestId || l.call?.request_id === requestId);
  const waitFor = async (pred: () => boolean) => {
    for (let i = 0; i < 100 && !pred(); i++) await new Promise((r) => setTimeout(r, 10));
  };
  const chat = (token: string, body: Record<string, unknown>, path = '/chat/completions') =>
    call<Record<string, unknown>>(server, 'POST', path, {
      token,
      body: { model: 'openai/gpt-test', messages: [{ role: 'user', content: PROMPT }], ...body },
    });

  before(async () => {
    fake = await startFakeUpstream();
    writeFileSync(join(dir, 'catalog.json'), JSON.stringify(testCatalog(fake.url)));
    const config = loadServerConfig({
      PORT: '0',
      HOST: '127.0.0.1',
      SWITCHYARD_DATABASE_URL: `sqlite:${sqlite.path}`,
      SWITCHYARD_MANAGEMENT_KEY: managementToken,
      SWITCHYARD_CONFIG: join(dir, 'catalog.json'),
    });
    const stream = { write: (line: string) => void lines.push(JSON.parse(line) as Line) };
    running = await startServer({ config, logger: { level: 'info', stream } });
    server = { api: `${running.url}/api/v1` };
    const created = await call<{ key: string }>(server, 'POST', '/keys', {
      token: managementToken,
      body: { name: 'logs' },
    });
    apiKey = created.body.key;
  });
  after(async () => {
    await running.close();
    await fake.close();
    sqlite.cleanup();
    rmSync(dir, { recursive: true, force: true });
  });

  it('a served call (JSON and streamed) logs only its call-log line', async () => {
    for (const stream of [false, true]) {
      const res = await chat(apiKey, { stream });
      assert.equal(res.status, 200);
      const requestId = res.headers.get('x-request-id') ?? '';
      assert.notEqual(requestId, '');
      await new Promise((r) => setTimeout(r, 50));
      const mine = about(requestId);
      assert.deepEqual(
        mine.map((l) => l.msg),
        ['model call'],
        `stream ${stream}`,
      );
      assert.equal(JSON.stringify(mine).includes(PROMPT), false);
      assert.equal(JSON.stringify(mine).includes(apiKey), false);
    }
  });

  it('a call that fails upstream after the gateway took it is still its call-log line (plus the operator error line)', async () => {
    fake.queue('fail-500');
    const res = await chat(apiKey, { provider: { allow_fallbacks: false } });
    assert.equal(res.status >= 500, true);
    const requestId = res.headers.get('x-request-id') ?? '';
    assert.notEqual(requestId, '');
    await new Promise((r) => setTimeout(r, 50));
    const msgs = about(requestId).map((l) => l.msg);
    assert.equal(msgs.filter((m) => m === 'model call').length, 1);
    assert.deepEqual(
      msgs.filter((m) => m !== 'model call' && m !== 'request failed'),
      [],
    );
  });

  it('a refused call logs one compact line: method, path, status, request id, response time; no query, headers or body', async () => {
    const before = lines.length;
    const refusals = [
      { token: 'sk-sy-v1-' + 'a'.repeat(64), body: {}, status: 401 },
      { token: apiKey, body: { messages: 'not a list' }, status: 400 },
      { token: apiKey, body: { model: 'nobody/no-such-model' }, status: 404 },
    ];
    for (const r of refusals) {
      const res = await call(server, 'POST', '/chat/completions?leak=query-secret', {
        token: r.token,
        body: { model: 'openai/gpt-test', messages: [{ role: 'user', content: PROMPT }], ...r.body },
      });
      assert.equal(res.status, r.status);
    }
    await waitFor(() => lines.slice(before).filter((l) => l.msg === 'model call refused').length >= refusals.length);
    const fresh = lines.slice(before);
    const refused = fresh.filter((l) => l.msg === 'model call refused');
    assert.deepEqual(
      refused.map((l) => l.status),
      refusals.map((r) => r.status),
    );
    for (const line of refused) {
      assert.equal(line.method, 'POST');
      assert.equal(line.path, '/api/v1/chat/completions');
      assert.equal(typeof line.reqId, 'string');
      assert.equal(typeof line.responseTime, 'number');
      assert.equal(fresh.filter((l) => l.reqId === line.reqId).length, 1, 'one line per refused call');
    }
    const text = JSON.stringify(fresh);
    for (const leak of ['query-secret', PROMPT, apiKey, 'authorization', 'sk-sy-v1-'])
      assert.equal(text.includes(leak), false, leak);
    assert.equal(
      fresh.some((l) => l.msg === 'incoming request' || l.msg === 'request completed' || l.msg === 'model call'),
      false,
    );
  });

  it("management routes keep Fastify's two request lines", async () => {
    const before = lines.length;
    const res = await call(server, 'GET', '/keys', { token: managementToken });
    assert.equal(res.status, 200);
    await waitFor(() => lines.slice(before).some((l) => l.msg === 'request completed'));
    const fresh = lines.slice(before);
    assert.deepEqual(
      fresh.map((l) => l.msg),
      ['incoming request', 'request completed'],
    );
    assert.equal(fresh[0]?.reqId, fresh[1]?.reqId);
  });
});
