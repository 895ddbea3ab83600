import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import Anthropic from '@anthropic-ai/sdk';
import { createAnthropic } from '@ai-sdk/anthropic';
import { generateText, streamText } from 'ai';
import { FAKE_TEXT, FAKE_USAGE } from '../fake-upstream/index.js';
import { call, dialects } from '../support/server.js';
import { PRICES, startGateway, testCatalog, type GatewayHarness } from '../support/gateway.js';

const EMAIL = 'jane.doe@example.com';
/** Translated (OpenAI-compatible upstream) and native (Anthropic upstream). */
const DIRECTIONS = [
  { name: 'to an OpenAI upstream', model: 'gpt-4o-mini', slug: 'openai/gpt-test', path: '/v1/chat/completions' },
  {
    name: 'to an Anthropic upstream (native)',
    model: 'claude-sonnet-4-5-20250929',
    slug: 'anthropic/claude-test',
    path: '/v1/messages',
  },
];

function aliasedCatalog(fakeUrl: string): Record<string, unknown> {
  const catalog = testCatalog(fakeUrl);
  const models = (catalog.models as Record<string, unknown>[]).map((m) =>
    m.slug === 'anthropic/claude-test'
      ? { ...m, aliases: ['claude-sonnet-4-5-20250929'] }
      : m.slug === 'openai/gpt-test'
        ? { ...m, aliases: ['gpt-4o-mini'] }
        : m,
  );
  return { ...catalog, models };
}

const user = (text: string): Anthropic.MessageParam => ({ role: 'user', content: text });

for (const dialect of dialects()) {
  describe(`POST /messages with the official clients (${dialect})`, () => {
    let gw: GatewayHarness;
    let client: Anthropic;
    const mgmt = () => gw.server.managementToken;
    const lastUpstream = () => gw.fake.requests.at(-1);
    const newKey = async (body: Record<string, unknown> = {}) => {
      const res = await call<{ key: string; data: { hash: string } }>(gw.server, 'POST', '/keys', {
        token: mgmt(),
        body: { name: 'messages', ...body },
      });
      assert.equal(res.status, 201);
      return { token: res.body.key, hash: res.body.data.hash };
    };
    const guardrailFor = async (hash: string, body: Record<string, unknown>) => {
      const g = await call<{ data: { id: string } }>(gw.server, 'POST', '/guardrails', {
        token: mgmt(),
        body: { name: `g-${Math.random()}`, ...body },
      });
      assert.equal(g.status, 201, JSON.stringify(g.body));
      await call(gw.server, 'POST', `/guardrails/${g.body.data.id}/assignments/keys`, {
        token: mgmt(),
        body: { key_hashes: [hash] },
      });
    };
    const sdk = (token: string) => new Anthropic({ apiKey: token, baseURL: `${gw.server.url}/api`, maxRetries: 0 });

    before(async () => {
      gw = await startGateway({ dialect, catalog: aliasedCatalog });
      client = sdk(gw.apiKey);
    });
    after(() => gw.close());
    beforeEach(() => gw.fake.reset());

    for (const d of DIRECTIONS) {
      it(`create ${d.name}: text, stop reason, usage; the id is the generation GET /generation reads`, async () => {
        const msg = await client.messages.create({
          model: d.model,
          max_tokens: 64,
          system: 'Be brief.',
          messages: [user('Hi')],
        });
        assert.equal(lastUpstream()?.path, d.path);
        assert.equal(msg.type, 'message');
        assert.equal(msg.model, d.slug);
        assert.deepEqual(msg.content, [{ type: 'text', text: FAKE_TEXT }]);
        assert.equal(msg.stop_reason, 'end_turn');
        assert.equal(msg.usage.input_tokens, FAKE_USAGE.prompt_tokens);
        assert.equal(msg.usage.output_tokens, FAKE_USAGE.completion_tokens);
        const gen = await call<{
          data: { model: string; api_type: string; api_surface: string; tokens_prompt: number; total_cost: number };
        }>(gw.server, 'GET', `/generation?id=${msg.id}`, { token: gw.apiKey });
        assert.equal(gen.status, 200);
        assert.equal(gen.body.data.model, d.slug);
        assert.equal(gen.body.data.api_type, 'completions');
        assert.equal(gen.body.data.api_surface, 'messages');
        assert.equal(gen.body.data.tokens_prompt, FAKE_USAGE.prompt_tokens);
        assert.ok(gen.body.data.total_cost > 0);
      });

      it(`stream ${d.name}: the SDK assembles the message; usage comes with message_delta`, async () => {
        const stream = client.messages.stream({ model: d.model, max_tokens: 64, messages: [user('Hi')] });
        const seen: string[] = [];
        stream.on('streamEvent', (e) => seen.push(e.type));
        const msg = await stream.finalMessage();
        assert.equal(lastUpstream()?.path, d.path);
        assert.deepEqual(msg.content, [{ type: 'text', text: FAKE_TEXT }]);
        assert.equal(msg.stop_reason, 'end_turn');
        assert.equal(msg.usage.output_tokens, FAKE_USAGE.completion_tokens);
        assert.equal(msg.usage.input_tokens, FAKE_USAGE.prompt_tokens);
        assert.match(msg.id, /^gen-/);
        assert.equal(seen[0], 'message_start');
        assert.deepEqual(seen.slice(-2), ['message_delta', 'message_stop']);
        assert.ok(seen.includes('content_block_start') && seen.includes('content_block_stop'));
      });

      it(`tool use ${d.name}, JSON and stream; a tool_result round trip`, async () => {
        const tools: Anthropic.Tool[] = [
          {
            name: 'get_weather',
            description: 'Weather',
            input_schema: { type: 'object', properties: { city: { type: 'string' } } },
          },
        ];
        gw.fake.queue('tool-call');
        const msg = await client.messages.create({
          model: d.model,
          max_tokens: 64,
          tools,
          messages: [user('Weather?')],
        });
        assert.equal(msg.stop_reason, 'tool_use');
        const use = msg.content.find((b) => b.type === 'tool_use');
        assert.ok(use !== undefined && use.type === 'tool_use');
        assert.deepEqual(use.input, { city: 'Paris' });
        gw.fake.queue('tool-call');
        const streamed = await client.messages
          .stream({ model: d.model, max_tokens: 64, tools, messages: [user('Weather?')] })
          .finalMessage();
        assert.equal(streamed.stop_reason, 'tool_use');
        const su = streamed.content.find((b) => b.type === 'tool_use');
        assert.ok(su !== undefined && su.type === 'tool_use');
        assert.deepEqual(su.input, { city: 'Paris' });
        const next = await client.messages.create({
          model: d.model,
          max_tokens: 64,
          tools,
          messages: [
            user('Weather?'),
            { role: 'assistant', content: msg.content },
            { role: 'user', content: [{ type: 'tool_result', tool_use_id: use.id, content: 'sunny' }] },
          ],
        });
        assert.equal(next.stop_reason, 'end_turn');
        assert.match(JSON.stringify(lastUpstream()?.body), /sunny/);
      });

      it(`redacts an e-mail address inside a content block ${d.name}; a guardrail blocks the model`, async () => {
        const key = await newKey();
        await guardrailFor(key.hash, { content_filter_builtins: [{ slug: 'email', action: 'redact' }] });
        const res = await sdk(key.token).messages.create({
          model: d.model,
          max_tokens: 64,
          messages: [
            {
              role: 'user',
              content: [
                { type: 'text', text: `Write to ${EMAIL}`, cache_control: { type: 'ephemeral' } },
                { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' } },
              ],
            },
          ],
        });
        assert.equal(res.type, 'message');
        const sent = JSON.stringify(lastUpstream()?.body);
        assert.ok(!sent.includes(EMAIL), sent);
        assert.match(sent, /Write to \[EMAIL\]/);
        const blocked = await newKey();
        await guardrailFor(blocked.hash, { ignored_models: [d.slug] });
        await assert.rejects(
          sdk(blocked.token).messages.create({ model: d.model, max_tokens: 8, messages: [user('hi')] }),
          (e) => e instanceof Anthropic.PermissionDeniedError && e.type === 'permission_error',
        );
      });
    }

    it('the native pass-through keeps cache_control, thinking signatures and unknown fields', async () => {
      await client.messages.create({
        model: 'anthropic/claude-test',
        max_tokens: 2048,
        thinking: { type: 'enabled', budget_tokens: 1024 },
        system: [{ type: 'text', text: 'sys', cache_control: { type: 'ephemeral' } }],
        messages: [
          user('q'),
          {
            role: 'assistant',
            content: [
              { type: 'thinking', thinking: 'because', signature: 'sig-123' },
              { type: 'text', text: 'a' },
            ],
          },
          {
            role: 'user',
            content: [
              {
                type: 'image',
                source: { type: 'url', url: 'https://example.invalid/i.png' },
                cache_control: { type: 'ephemeral' },
              },
            ],
          },
        ],
        service_tier: 'auto',
      });
      const sent = lastUpstream()?.body as Record<string, unknown>;
      assert.equal(sent.model, 'claude-test');
      assert.equal(sent.service_tier, 'auto');
      assert.deepEqual(sent.thinking, { type: 'enabled', budget_tokens: 1024 });
      assert.match(JSON.stringify(sent.messages), /"signature":"sig-123"/);
      assert.match(JSON.stringify(sent.messages), /"image","source":\{"type":"url".*"cache_control"/);
      assert.deepEqual(sent.system, [{ type: 'text', text: 'sys', cache_control: { type: 'ephemeral' } }]);
    });

    it('errors: 429 rate_limit_error, 402 billing_error, a mid-stream error event', async () => {
      gw.fake.queue('fail-429');
      await assert.rejects(
        client.messages.create({ model: 'anthropic/claude-test', max_tokens: 8, messages: [user('hi')] }),
        (e) => e instanceof Anthropic.RateLimitError && e.type === 'rate_limit_error',
      );
      // A limit below one call's estimate: the reservation refuses it (402, before any upstream call).
      const poor = await newKey({ limit: PRICES.anthropic.prompt });
      await assert.rejects(
        sdk(poor.token).messages.create({ model: 'anthropic/claude-test', max_tokens: 8, messages: [user('hi')] }),
        (e) => e instanceof Anthropic.APIError && e.status === 402 && e.type === 'billing_error',
      );
      for (const model of ['anthropic/claude-test', 'openai/gpt-test']) {
        gw.fake.queue('mid-stream-error');
        const stream = client.messages.stream({
          model,
          max_tokens: 8,
          messages: [user('hi')],
          ...({ provider: { allow_fallbacks: false } } as object),
        });
        await assert.rejects(stream.finalMessage(), (e) => e instanceof Error, model);
      }
    });

    it('a budget on the Messages surface: the guardrail refuses once spent', async () => {
      const key = await newKey();
      const oneCall =
        FAKE_USAGE.prompt_tokens * PRICES.anthropic.prompt + FAKE_USAGE.completion_tokens * PRICES.anthropic.completion;
      await guardrailFor(key.hash, { limit_usd: oneCall * 1.5 });
      const c = sdk(key.token);
      const statuses: number[] = [];
      for (let i = 0; i < 4; i++) {
        try {
          await c.messages.create({ model: 'anthropic/claude-test', max_tokens: 8, messages: [user('hi')] });
          statuses.push(200);
        } catch (e) {
          const status: unknown = e instanceof Anthropic.APIError ? e.status : -1;
          statuses.push(typeof status === 'number' ? status : -1);
        }
      }
      assert.equal(statuses[0], 200);
      assert.ok(statuses.slice(1).includes(403), statuses.join(','));
    });

    it('the Vercel AI SDK (@ai-sdk/anthropic) generates and streams, both directions', async () => {
      const provider = createAnthropic({ baseURL: `${gw.server.url}/api/v1`, apiKey: gw.apiKey });
      for (const model of ['claude-sonnet-4-5-20250929', 'openai/gpt-test']) {
        const out = await generateText({ model: provider(model), prompt: 'Hi', maxOutputTokens: 32 });
        assert.equal(out.text, FAKE_TEXT);
        assert.equal(out.finishReason, 'stop');
        assert.equal(out.usage.outputTokens, FAKE_USAGE.completion_tokens);
        const streamed = streamText({ model: provider(model), prompt: 'Hi', maxOutputTokens: 32 });
        assert.equal(await streamed.text, FAKE_TEXT);
        assert.equal((await streamed.usage).outputTokens, FAKE_USAGE.completion_tokens);
      }
    });
  });
}
