import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import OpenAI from 'openai';
import { OpenRouter } from '@openrouter/sdk';
import { FAKE_TEXT, FAKE_USAGE } from '../fake-upstream/index.js';
import { PRICES, startGateway, type GatewayHarness } from '../support/gateway.js';

const close = (a: number, b: number) => Math.abs(a - b) < 1e-12;

/** The official clients, unmodified, through both adapters (JSON and SSE). */
describe('model calls through official clients', () => {
  let gw: GatewayHarness;
  let openai: OpenAI;
  let sdk: OpenRouter;

  before(async () => {
    gw = await startGateway({ dialect: 'sqlite' });
    openai = new OpenAI({ apiKey: gw.apiKey, baseURL: gw.server.api, maxRetries: 0 });
    sdk = new OpenRouter({ apiKey: gw.apiKey, serverURL: gw.server.api, retryConfig: { strategy: 'none' } });
  });
  after(() => gw.close());

  it('openai client: JSON chat completion with id, model, provider and usage.cost', async () => {
    const res = await openai.chat.completions.create({
      model: 'openai/gpt-test',
      messages: [{ role: 'user', content: 'hello' }],
    });
    assert.match(res.id, /^gen-/);
    assert.equal(res.model, 'openai/gpt-test');
    assert.equal(res.choices[0]?.message.content, FAKE_TEXT);
    const usage = res.usage as unknown as { prompt_tokens: number; completion_tokens: number; cost: number };
    assert.equal(usage.prompt_tokens, FAKE_USAGE.prompt_tokens);
    const expected =
      FAKE_USAGE.prompt_tokens * PRICES.primary.prompt + FAKE_USAGE.completion_tokens * PRICES.primary.completion;
    assert.ok(close(usage.cost, expected), `${usage.cost} vs ${expected}`);
    assert.equal((res as unknown as { provider: string }).provider, 'Fake OpenAI');
    const upstream = gw.fake.requests.at(-1);
    assert.equal(upstream?.path, '/v1/chat/completions');
    assert.equal((upstream?.body as { model: string }).model, 'gpt-test', 'upstream gets its own model name');
    assert.equal(
      upstream?.headers.authorization,
      'Bearer sk-upstream-primary-secret-0001',
      'the provider key, not the client key',
    );
  });

  it('openai client: streamed chat completion, usage with cost in the last chunk', async () => {
    const stream = await openai.chat.completions.create({
      model: 'openai/gpt-test',
      stream: true,
      messages: [{ role: 'user', content: 'hi' }],
    });
    let text = '';
    let lastUsage: { cost?: number; total_tokens: number } | undefined;
    const ids = new Set<string>();
    for await (const chunk of stream) {
      ids.add(chunk.id);
      text += chunk.choices[0]?.delta.content ?? '';
      if (chunk.usage) lastUsage = chunk.usage;
    }
    assert.equal(text, FAKE_TEXT);
    assert.equal(ids.size, 1, 'one generation id on every chunk');
    assert.equal(lastUsage?.total_tokens, FAKE_USAGE.total_tokens);
    assert.ok((lastUsage?.cost ?? 0) > 0);
  });

  it('anthropic adapter: JSON and stream, with cost from its prices', async () => {
    const res = await openai.chat.completions.create({
      model: 'anthropic/claude-test',
      messages: [
        { role: 'system', content: 'be brief' },
        { role: 'user', content: 'hello' },
      ],
    });
    assert.equal(res.choices[0]?.message.content, FAKE_TEXT);
    const upstream = gw.fake.requests.at(-1);
    assert.equal(upstream?.path, '/v1/messages');
    assert.equal((upstream?.body as { system: unknown }).system !== undefined, true, 'system prompt translated');
    const cost = (res.usage as unknown as { cost: number }).cost;
    assert.ok(
      close(
        cost,
        FAKE_USAGE.prompt_tokens * PRICES.anthropic.prompt + FAKE_USAGE.completion_tokens * PRICES.anthropic.completion,
      ),
    );
    const stream = await openai.chat.completions.create({
      model: 'anthropic/claude-test',
      stream: true,
      messages: [{ role: 'user', content: 'x' }],
    });
    let text = '';
    for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
    assert.equal(text, FAKE_TEXT);
  });

  it('@openrouter/sdk chat.send, JSON and streaming', async () => {
    const res = await sdk.chat.send({
      chatRequest: { model: 'openai/gpt-test', messages: [{ role: 'user', content: 'hello' }], stream: false },
    });
    if (!('choices' in res)) throw new Error('expected a JSON result');
    assert.equal(res.model, 'openai/gpt-test');
    assert.equal(res.choices[0]?.message.content, FAKE_TEXT);
    const stream = await sdk.chat.send({
      chatRequest: { model: 'anthropic/claude-test', messages: [{ role: 'user', content: 'hello' }], stream: true },
    });
    if ('choices' in stream) throw new Error('expected a stream');
    let text = '';
    for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
    assert.equal(text, FAKE_TEXT);
  });

  it('legacy completions, JSON and stream', async () => {
    const res = await openai.completions.create({ model: 'openai/gpt-test', prompt: 'Say hi' });
    assert.equal(res.object, 'text_completion');
    assert.equal(res.model, 'openai/gpt-test');
    assert.ok((res.choices[0]?.text ?? '').length > 0);
    const viaChat = await openai.completions.create({ model: 'anthropic/claude-test', prompt: 'Say hi' });
    assert.equal(viaChat.choices[0]?.text, FAKE_TEXT, 'chat-only upstream serves completions through a conversion');
    const stream = await openai.completions.create({ model: 'anthropic/claude-test', prompt: 'Say hi', stream: true });
    let text = '';
    for await (const chunk of stream) text += chunk.choices[0]?.text ?? '';
    assert.equal(text, FAKE_TEXT);
  });

  it('GET /models and /providers list the catalog', async () => {
    const models = await sdk.models.list();
    assert.ok(
      models.result.data.some((m) => m.id === 'openai/gpt-test' && m.canonicalSlug === 'openai/gpt-test-2026-01-01'),
    );
    const providers = await sdk.providers.list();
    assert.ok(providers.data.some((p) => p.slug === 'fake-anthropic'));
  });
});
