import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import OpenAI from 'openai';
import { embed, embedMany, generateObject, generateText, jsonSchema, tool } from 'ai';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { z } from 'zod';
import { fakeEmbedding, FAKE_EMBEDDING_TOKENS_PER_INPUT, FAKE_TEXT } from '../fake-upstream/index.js';
import { startGateway, type GatewayHarness } from '../support/gateway.js';
import { call, dialects } from '../support/server.js';
import { EMBED_PRICE, surfacesCatalog } from './surfaces-support.js';

type Json = Record<string, unknown>;
const EMAIL = 'jane.doe@example.com';

describe('POST /embeddings and GET /embeddings/models through official clients', () => {
  let gw: GatewayHarness;
  let openai: OpenAI;

  before(async () => {
    gw = await startGateway({ dialect: 'sqlite', catalog: surfacesCatalog });
    openai = new OpenAI({ apiKey: gw.apiKey, baseURL: gw.server.api, maxRetries: 0 });
  });
  after(() => gw.close());
  beforeEach(() => gw.fake.reset());

  it('openai SDK: base64 (its default) and float, dimensions, a top-level id that GET /generation reads', async () => {
    const res = await openai.embeddings.create({ model: 'openai/embed-test', input: ['a', 'b'], dimensions: 4 });
    assert.deepEqual(
      res.data.map((d) => d.embedding),
      [fakeEmbedding(0, 4), fakeEmbedding(1, 4)],
    );
    assert.equal(gw.fake.requests.at(-1)?.body?.encoding_format, 'base64');
    assert.equal(gw.fake.requests.at(-1)?.body?.model, 'embed-test');
    const float = await openai.embeddings.create({ model: 'openai/embed-test', input: 'a', encoding_format: 'float' });
    assert.deepEqual(float.data[0]?.embedding, fakeEmbedding(0));
    assert.equal(float.model, 'openai/embed-test');
    const tokens = FAKE_EMBEDDING_TOKENS_PER_INPUT;
    assert.deepEqual(float.usage, { prompt_tokens: tokens, total_tokens: tokens, cost: tokens * EMBED_PRICE } as never);
    const id = (float as unknown as { id: string }).id;
    assert.match(id, /^gen-/);
    const gen = await call<{
      data: { api_type: string; api_surface: string; total_cost: number; tokens_prompt: number };
    }>(gw.server, 'GET', `/generation?id=${id}`, { token: gw.apiKey });
    assert.equal(gen.status, 200, JSON.stringify(gen.body));
    assert.equal(gen.body.data.api_type, 'embeddings');
    assert.equal(gen.body.data.api_surface, 'embeddings');
    assert.ok(Math.abs(gen.body.data.total_cost - tokens * EMBED_PRICE) < 1e-15);
  });

  it('wrong kind: a chat model for embeddings and an embedding model for chat are 400 naming the model', async () => {
    const e = await call<{ error: { message: string } }>(gw.server, 'POST', '/embeddings', {
      token: gw.apiKey,
      body: { model: 'openai/gpt-test', input: 'x' },
    });
    assert.equal(e.status, 400);
    assert.match(e.body.error.message, /"openai\/gpt-test" does not serve embeddings/);
    const c = await call<{ error: { message: string } }>(gw.server, 'POST', '/chat/completions', {
      token: gw.apiKey,
      body: { model: 'openai/embed-test', messages: [{ role: 'user', content: 'x' }] },
    });
    assert.equal(c.status, 400);
    assert.match(c.body.error.message, /"openai\/embed-test" does not serve chat/);
    const s = await call(gw.server, 'POST', '/embeddings', {
      token: gw.apiKey,
      body: { model: 'openai/embed-test', input: 'x', stream: true },
    });
    assert.equal(s.status, 400);
  });

  it('GET /embeddings/models lists the models that serve embeddings', async () => {
    const res = await call<{ data: { id: string }[] }>(gw.server, 'GET', '/embeddings/models', { token: gw.apiKey });
    assert.equal(res.status, 200);
    assert.deepEqual(res.body.data.map((m) => m.id).sort(), ['demo/echo', 'openai/embed-test']);
  });

  it('Vercel AI SDK (openai-compatible): embed, embedMany, chat with a tool, generateObject on the demo model', async () => {
    const sy = createOpenAICompatible({
      name: 'switchyard',
      baseURL: gw.server.api,
      apiKey: gw.apiKey,
      supportsStructuredOutputs: true,
    });
    const one = await embed({ model: sy.embeddingModel('openai/embed-test'), value: 'hello', maxRetries: 0 });
    assert.deepEqual(one.embedding, fakeEmbedding(0));
    const many = await embedMany({ model: sy.embeddingModel('demo/echo'), values: ['a cat', 'a dog'], maxRetries: 0 });
    assert.equal(many.embeddings.length, 2);
    assert.ok(Math.abs(Math.hypot(...(many.embeddings[0] ?? [])) - 1) < 1e-6);
    const text = await generateText({ model: sy.chatModel('openai/gpt-test'), prompt: 'hi', maxRetries: 0 });
    assert.equal(text.text, FAKE_TEXT);
    gw.fake.queue('tool-call');
    const withTool = await generateText({
      model: sy.chatModel('openai/gpt-test'),
      prompt: 'weather?',
      maxRetries: 0,
      tools: {
        get_weather: tool({
          description: 'w',
          inputSchema: jsonSchema<{ city: string }>({
            type: 'object',
            properties: { city: { type: 'string' } },
            required: ['city'],
          }),
        }),
      },
    });
    assert.equal(withTool.toolCalls[0]?.toolName, 'get_weather');
    const schema = z.object({ name: z.string(), age: z.number().int().min(0), tags: z.array(z.string()) });
    const object = await generateObject({ model: sy.chatModel('demo/echo'), schema, prompt: 'Ada', maxRetries: 0 });
    assert.ok(schema.safeParse(object.object).success, JSON.stringify(object.object));
  });
});

for (const dialect of dialects()) {
  describe(`governance on /responses and /embeddings (${dialect})`, () => {
    let gw: GatewayHarness;
    let key: { token: string; hash: string };
    let guardrailId: string;
    const mgmt = () => gw.server.managementToken;
    const post = (path: string, body: Json, token = key.token) =>
      call<{ error?: { code: number; message: string; metadata?: Json } }>(gw.server, 'POST', path, { token, body });
    const guardrail = async (body: Json) => {
      const res = await call(gw.server, 'PATCH', `/guardrails/${guardrailId}`, { token: mgmt(), body });
      assert.equal(res.status, 200, JSON.stringify(res.body));
    };

    before(async () => {
      gw = await startGateway({ dialect, catalog: surfacesCatalog });
      const created = await call<{ key: string; data: { hash: string } }>(gw.server, 'POST', '/keys', {
        token: mgmt(),
        body: { name: 'governed' },
      });
      key = { token: created.body.key, hash: created.body.data.hash };
      const g = await call<{ data: { id: string } }>(gw.server, 'POST', '/guardrails', {
        token: mgmt(),
        body: { name: 'surfaces' },
      });
      guardrailId = g.body.data.id;
      await call(gw.server, 'POST', `/guardrails/${guardrailId}/assignments/keys`, {
        token: mgmt(),
        body: { key_hashes: [key.hash] },
      });
    });
    after(() => gw.close());
    beforeEach(() => gw.fake.reset());

    it('a model the guardrail ignores is refused (403) on both surfaces', async () => {
      await guardrail({ ignored_models: ['openai/gpt-test', 'openai/embed-test'] });
      const r = await post('/responses', { model: 'openai/gpt-test', input: 'x' });
      assert.equal(r.status, 403, JSON.stringify(r.body));
      const e = await post('/embeddings', { model: 'openai/embed-test', input: 'x' });
      assert.equal(e.status, 403, JSON.stringify(e.body));
      assert.equal(gw.fake.requests.length, 0);
      await guardrail({ ignored_models: null });
    });

    it('an e-mail address is redacted in instructions, input items, tool outputs and embedding inputs; block refuses', async () => {
      await guardrail({ content_filter_builtins: [{ slug: 'email', action: 'redact' }] });
      const r = await post('/responses', {
        model: 'openai/gpt-test',
        instructions: `Escalate to ${EMAIL}`,
        input: [
          { role: 'user', content: [{ type: 'input_text', text: `I am ${EMAIL}` }] },
          { type: 'function_call', call_id: 'c1', name: 'lookup', arguments: `{"to":"${EMAIL}"}` },
          { type: 'function_call_output', call_id: 'c1', output: `found ${EMAIL}` },
        ],
      });
      assert.equal(r.status, 200, JSON.stringify(r.body));
      const sent = JSON.stringify(gw.fake.requests.at(-1)?.body);
      assert.ok(!sent.includes(EMAIL), sent);
      assert.equal(sent.split('[EMAIL]').length - 1, 4, sent);
      const e = await post('/embeddings', { model: 'openai/embed-test', input: ['plain', `mail ${EMAIL}`] });
      assert.equal(e.status, 200, JSON.stringify(e.body));
      assert.deepEqual(gw.fake.requests.at(-1)?.body?.input, ['plain', 'mail [EMAIL]']);
      const tokens = await post('/embeddings', { model: 'openai/embed-test', input: [1, 2, 3] });
      assert.equal(tokens.status, 400, 'token ids cannot be screened');
      await guardrail({ content_filter_builtins: [{ slug: 'email', action: 'block' }] });
      const blocked = await post('/embeddings', { model: 'openai/embed-test', input: `mail ${EMAIL}` });
      assert.equal(blocked.status, 403);
      const blockedR = await post('/responses', { model: 'openai/gpt-test', input: `mail ${EMAIL}` });
      assert.equal(blockedR.status, 403);
      await guardrail({ content_filter_builtins: null });
    });

    it('a key whose budget is spent is refused on both surfaces', async () => {
      const created = await call<{ key: string }>(gw.server, 'POST', '/keys', {
        token: mgmt(),
        body: { name: 'broke', limit: 0.000000001 },
      });
      const token = created.body.key;
      const r = await post('/responses', { model: 'openai/gpt-test', input: 'x', max_output_tokens: 100 }, token);
      assert.equal(r.status, 402, JSON.stringify(r.body));
      const e = await post('/embeddings', { model: 'openai/embed-test', input: 'a longer text to embed' }, token);
      assert.equal(e.status, 402, JSON.stringify(e.body));
    });
  });
}
