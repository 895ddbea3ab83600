import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { call } from '../support/server.js';
import { startGateway, type GatewayHarness } from '../support/gateway.js';

type Body = {
  model?: string;
  provider?: string;
  error?: { code: number; message: string; metadata: Record<string, unknown> | null };
};

describe('routing, fallbacks and provider preferences', () => {
  let gw: GatewayHarness;
  const chat = (body: Record<string, unknown>, token?: string) =>
    call<Body>(gw.server, 'POST', '/chat/completions', {
      token: token ?? gw.apiKey,
      body: { messages: [{ role: 'user', content: 'hi' }], ...body },
    });
  const upstreamModels = () => gw.fake.requests.map((r) => (r.body as { model: string }).model);

  before(async () => {
    gw = await startGateway({ dialect: 'sqlite' });
  });
  after(() => gw.close());
  beforeEach(() => gw.fake.reset());

  it('defaults to the cheapest endpoint', async () => {
    const res = await chat({ model: 'openai/gpt-test' });
    assert.equal(res.status, 200);
    assert.equal(res.body.provider, 'Fake OpenAI');
    assert.deepEqual(upstreamModels(), ['gpt-test']);
  });

  it('accepts the canonical slug as model', async () => {
    const res = await chat({ model: 'openai/gpt-test-2026-01-01' });
    assert.equal(res.status, 200);
    assert.equal(res.body.model, 'openai/gpt-test');
  });

  for (const status of [500, 429, 503]) {
    it(`falls back to the next endpoint on upstream ${status}`, async () => {
      gw.fake.queue(`fail-${status}`);
      const res = await chat({ model: 'openai/gpt-test' });
      assert.equal(res.status, 200);
      assert.equal(res.body.provider, 'Fake OpenAI B');
      assert.deepEqual(upstreamModels(), ['gpt-test', 'gpt-test-b']);
    });
  }

  it('falls back when the first byte is too slow (timeout)', async () => {
    gw.fake.queue('slow-first-byte-2500');
    const res = await chat({ model: 'openai/gpt-test' });
    assert.equal(res.status, 200);
    const [slow, served] = upstreamModels();
    assert.notEqual(slow, served, 'the second endpoint served after the first timed out');
    assert.equal(res.body.provider, served === 'gpt-test' ? 'Fake OpenAI' : 'Fake OpenAI B');
  });

  it('pushes an endpoint that keeps failing behind the healthy ones (circuit breaker)', async () => {
    const fresh = await startGateway({ dialect: 'sqlite' });
    try {
      const send = () =>
        call<Body>(fresh.server, 'POST', '/chat/completions', {
          token: fresh.apiKey,
          body: { model: 'openai/gpt-test', messages: [{ role: 'user', content: 'x' }] },
        });
      for (let i = 0; i < 3; i++) {
        fresh.fake.queue('fail-500');
        assert.equal((await send()).body.provider, 'Fake OpenAI B');
      }
      fresh.fake.reset();
      assert.equal((await send()).body.provider, 'Fake OpenAI B');
      assert.deepEqual(
        fresh.fake.requests.map((r) => (r.body as { model: string }).model),
        ['gpt-test-b'],
        'the open endpoint is not tried first',
      );
    } finally {
      await fresh.close();
    }
  });

  it('falls back across the models list', async () => {
    gw.fake.queue('fail-503');
    const res = await chat({ models: ['anthropic/claude-test', 'google/gemini-test'] });
    assert.equal(res.status, 200);
    assert.equal(res.body.model, 'google/gemini-test');
    assert.deepEqual(upstreamModels(), ['claude-test', 'gemini-test']);
  });

  it('does not retry a 400 from the upstream (the request is at fault)', async () => {
    gw.fake.queue('fail-400');
    const res = await chat({ model: 'openai/gpt-test' });
    assert.equal(res.status, 400);
    assert.equal(gw.fake.requests.length, 1);
  });

  it('answers the last failure when every endpoint fails, with retry-after on 429', async () => {
    gw.fake.queue('fail-429');
    gw.fake.queue('fail-429');
    const res = await chat({ model: 'openai/gpt-test' });
    assert.equal(res.status, 429);
    assert.equal(res.body.error?.code, 429);
    assert.ok(res.headers.get('retry-after') !== null);
    assert.ok(!JSON.stringify(res.body).includes('sk-upstream'), 'provider keys never leak');
  });

  it('allow_fallbacks:false keeps to the first provider', async () => {
    gw.fake.queue('fail-500');
    const res = await chat({ model: 'openai/gpt-test', provider: { allow_fallbacks: false } });
    assert.equal(res.status, 502);
    assert.equal(gw.fake.requests.length, 1);
  });

  it('provider.order puts providers first', async () => {
    const res = await chat({ model: 'openai/gpt-test', provider: { order: ['fake-openai-b'] } });
    assert.equal(res.body.provider, 'Fake OpenAI B');
  });

  it('provider.only and provider.ignore filter', async () => {
    assert.equal(
      (await chat({ model: 'openai/gpt-test', provider: { only: ['fake-openai-b'] } })).body.provider,
      'Fake OpenAI B',
    );
    assert.equal(
      (await chat({ model: 'openai/gpt-test', provider: { ignore: ['fake-openai'] } })).body.provider,
      'Fake OpenAI B',
    );
    const none = await chat({ model: 'openai/gpt-test', provider: { only: ['fake-anthropic'] } });
    assert.equal(none.status, 404);
  });

  it('provider.sort by price, zdr and data_collection', async () => {
    assert.equal((await chat({ model: 'openai/gpt-test', provider: { sort: 'price' } })).body.provider, 'Fake OpenAI');
    gw.fake.queue('fail-500');
    const zdr = await chat({ model: 'openai/gpt-test', provider: { zdr: true } });
    assert.equal(zdr.status, 502, 'the non-ZDR endpoint is not a fallback');
    assert.equal((await chat({ model: 'google/gemini-test', provider: { data_collection: 'deny' } })).status, 404);
  });

  it('provider.max_price is USD per million tokens', async () => {
    assert.equal(
      (await chat({ model: 'openai/gpt-test', provider: { order: ['fake-openai-b'], max_price: { prompt: 1.5 } } }))
        .body.provider,
      'Fake OpenAI',
    );
    assert.equal((await chat({ model: 'openai/gpt-test', provider: { max_price: { prompt: '0.5' } } })).status, 404);
  });

  it('provider.require_parameters drops endpoints that do not support a sent parameter', async () => {
    const res = await chat({ model: 'openai/gpt-test', provider: { require_parameters: true }, temperature: 0.2 });
    assert.equal(res.status, 200);
  });

  it('rejects unknown provider keys and bad values with 400', async () => {
    for (const provider of [{ bogus: 1 }, { sort: 'cheapest' }, { only: 'x' }, { max_price: { prompt: -1 } }]) {
      const res = await chat({ model: 'openai/gpt-test', provider });
      assert.equal(res.status, 400, JSON.stringify(provider));
    }
  });

  it('404 for an unknown model, 400 for a missing one', async () => {
    assert.equal((await chat({ model: 'nope/nothing' })).status, 404);
    assert.equal((await chat({})).status, 400);
  });

  it('validates messages, roles, tools and numbers', async () => {
    const bad: Record<string, unknown>[] = [
      { model: 'openai/gpt-test', messages: [] },
      { model: 'openai/gpt-test', messages: [{ role: 'wizard', content: 'x' }] },
      { model: 'openai/gpt-test', messages: [{ role: 'user' }] },
      { model: 'openai/gpt-test', messages: [{ role: 'tool', content: 'x' }] },
      { model: 'openai/gpt-test', temperature: 3 },
      { model: 'openai/gpt-test', top_p: -0.1 },
      { model: 'openai/gpt-test', max_tokens: 0 },
      { model: 'openai/gpt-test', stop: ['a', 'b', 'c', 'd', 'e'] },
      { model: 'openai/gpt-test', tools: [{ type: 'function', function: { name: '' } }] },
      { model: 'openai/gpt-test', stream: 'yes' },
    ];
    for (const body of bad) {
      const res = await call<Body>(gw.server, 'POST', '/chat/completions', {
        token: gw.apiKey,
        body: { messages: [{ role: 'user', content: 'x' }], ...body },
      });
      assert.equal(res.status, 400, JSON.stringify(body));
    }
    assert.equal(gw.fake.requests.length, 0, 'nothing invalid reached the upstream');
  });

  it('model routes take API keys only', async () => {
    assert.equal((await chat({ model: 'openai/gpt-test' }, gw.server.managementToken)).status, 403);
    assert.equal(
      (await call(gw.server, 'POST', '/chat/completions', { body: { model: 'openai/gpt-test', messages: [] } })).status,
      401,
    );
  });
});
