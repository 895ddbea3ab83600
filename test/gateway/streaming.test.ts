import assert from 'node:assert/strict';
import { request } from 'node:http';
import { after, before, beforeEach, describe, it } from 'node:test';
import { startGateway, type GatewayHarness } from '../support/gateway.js';

interface SseResult {
  status: number;
  events: string[];
  comments: string[];
}

async function sse(gw: GatewayHarness, body: Record<string, unknown>): Promise<SseResult> {
  const res = await fetch(`${gw.server.api}/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${gw.apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ stream: true, messages: [{ role: 'user', content: 'hi' }], ...body }),
  });
  const text = await res.text();
  const events: string[] = [];
  const comments: string[] = [];
  for (const block of text.split('\n\n')) {
    if (block.startsWith('data: ')) events.push(block.slice(6));
    else if (block.startsWith(':')) comments.push(block);
  }
  return { status: res.status, events, comments };
}

describe('streaming', () => {
  let gw: GatewayHarness;
  before(async () => {
    gw = await startGateway({
      dialect: 'sqlite',
      env: { SWITCHYARD_STREAM_KEEPALIVE_AFTER_MS: '200', SWITCHYARD_STREAM_KEEPALIVE_EVERY_MS: '200' },
    });
  });
  after(() => gw.close());
  beforeEach(() => gw.fake.reset());

  it('ends with data: [DONE] and carries usage in the last data chunk', async () => {
    const r = await sse(gw, { model: 'openai/gpt-test' });
    assert.equal(r.status, 200);
    assert.equal(r.events.at(-1), '[DONE]');
    const last = JSON.parse(r.events.at(-2) ?? '{}') as { usage?: { cost: number } };
    assert.ok(last.usage !== undefined && last.usage.cost > 0);
  });

  it('a stream cut mid-way ends with an error chunk (finish_reason error), status stays 200', async () => {
    gw.fake.queue('cut-stream-after-2');
    const r = await sse(gw, { model: 'openai/gpt-test' });
    assert.equal(r.status, 200);
    const chunks = r.events
      .filter((e) => e !== '[DONE]')
      .map((e) => JSON.parse(e) as { error?: { code: number }; choices: { finish_reason: string | null }[] });
    const last = chunks.at(-1);
    assert.ok(last?.error !== undefined);
    assert.equal(last?.choices[0]?.finish_reason, 'error');
    assert.equal(gw.fake.requests.length, 1, 'no failover after the first token');
    // The upstream never sent usage: the gateway counted what it streamed and still charged it.
    const gen = await fetch(
      `${gw.server.api}/generation?id=${(JSON.parse(r.events[0] ?? '{}') as { id: string }).id}`,
      {
        headers: { authorization: `Bearer ${gw.apiKey}` },
      },
    );
    const data = (
      (await gen.json()) as {
        data: { tokens_completion: number; tokens_prompt: number; total_cost: number; finish_reason: string };
      }
    ).data;
    assert.ok(data.tokens_completion > 0 && data.tokens_prompt > 0);
    assert.ok(data.total_cost > 0);
    assert.equal(data.finish_reason, 'error');
  });

  it('a pre-stream failure falls back silently; when all fail, a normal HTTP error', async () => {
    gw.fake.queue('fail-500');
    const ok = await sse(gw, { model: 'openai/gpt-test' });
    assert.equal(ok.status, 200);
    gw.fake.queue('fail-500');
    gw.fake.queue('fail-500');
    const failed = await fetch(`${gw.server.api}/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${gw.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ stream: true, model: 'openai/gpt-test', messages: [{ role: 'user', content: 'x' }] }),
    });
    assert.equal(failed.status, 502);
    assert.equal(((await failed.json()) as { error: { code: number } }).error.code, 502);
  });

  it('sends keep-alive comments while the upstream is slow to answer', async () => {
    gw.fake.queue('slow-first-byte-900');
    const r = await sse(gw, { model: 'openai/gpt-test', provider: { allow_fallbacks: false } });
    assert.equal(r.status, 200);
    assert.ok(r.comments.some((c) => c.includes('SWITCHYARD PROCESSING')));
    assert.equal(r.events.at(-1), '[DONE]');
  });

  it('a client that disconnects aborts the upstream call', async () => {
    gw.fake.queue('chunk-delay-150');
    const url = new URL(`${gw.server.api}/chat/completions`);
    await new Promise<void>((resolve, reject) => {
      const req = request(
        url,
        { method: 'POST', headers: { authorization: `Bearer ${gw.apiKey}`, 'content-type': 'application/json' } },
        (res) => {
          res.once('data', () => {
            req.destroy();
            resolve();
          });
        },
      );
      req.on('error', () => undefined);
      req.end(
        JSON.stringify({
          stream: true,
          model: 'openai/gpt-test',
          provider: { allow_fallbacks: false },
          messages: [{ role: 'user', content: 'x' }],
        }),
      );
      setTimeout(() => reject(new Error('no data')), 5000).unref();
    });
    const upstream = gw.fake.requests[0];
    assert.ok(upstream !== undefined);
    await upstream.closed;
    assert.equal(upstream.closedEarly, true, 'the upstream connection was closed before the answer finished');
  });
});
