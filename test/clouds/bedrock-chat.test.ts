import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import OpenAI from 'openai';
import { AWS_TEST } from '../fake-clouds/index.js';
import { call, dialects } from '../support/server.js';
import {
  BEDROCK_PRICES,
  CLAUDE_ID,
  NOVA_ID,
  PROFILE_KEY,
  startBedrockGateway,
  type BedrockGateway,
} from './bedrock-harness.js';

// The OpenAI client through Switchyard to Bedrock's Converse API: the fake checks every SigV4
// signature (or Bedrock API key), so a request it refuses fails the test.

const near = (a: number, b: number): boolean => Math.abs(a - b) < 1e-12;
const PIXEL = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';
const EMAIL = 'jane.doe@example.com';

type Json = Record<string, unknown>;

for (const dialect of dialects()) {
  describe(`Bedrock Converse through Switchyard (${dialect})`, () => {
    let gw: BedrockGateway;
    let openai: OpenAI;
    const last = () => gw.fake.requests.at(-1);
    const sentBody = () => last()?.body ?? {};

    before(async () => {
      gw = await startBedrockGateway(dialect);
      openai = new OpenAI({ apiKey: gw.apiKey, baseURL: gw.server.api, maxRetries: 0 });
    });
    after(() => gw.close());
    beforeEach(() => gw.fake.reset());

    it('JSON chat: a signed Converse call; text, stop reason, cache usage and its cost recorded', async () => {
      gw.fake.queue({
        text: 'Hello from Bedrock.',
        usage: { input: 30, output: 9, cacheRead: 20, cacheWrite: 4, reasoning: 0 },
      });
      const res = await openai.chat.completions.create({
        model: 'anthropic/claude-sonnet-4.5',
        max_tokens: 200,
        stop: ['END'],
        temperature: 0.3,
        messages: [
          { role: 'system', content: 'Be brief.' },
          { role: 'user', content: 'Hi' },
        ],
      });
      assert.equal(res.choices[0]?.message.content, 'Hello from Bedrock.');
      assert.equal(res.choices[0]?.finish_reason, 'stop');
      const upstream = last();
      assert.equal(upstream?.path, `/model/${CLAUDE_ID}/converse`);
      assert.equal(upstream?.rawPath, `/model/${encodeURIComponent(CLAUDE_ID)}/converse`);
      assert.match(
        String(upstream?.headers.authorization),
        new RegExp(`Credential=${AWS_TEST.accessKeyId}/\\d{8}/us-east-1/bedrock/aws4_request`),
      );
      assert.deepEqual(sentBody().system, [{ text: 'Be brief.' }]);
      assert.deepEqual(sentBody().inferenceConfig, { maxTokens: 200, temperature: 0.3, stopSequences: ['END'] });
      const usage = res.usage as unknown as {
        prompt_tokens: number;
        completion_tokens: number;
        cost: number;
        prompt_tokens_details: { cached_tokens: number };
      };
      assert.equal(usage.prompt_tokens, 54, 'input, cache reads and cache writes');
      assert.equal(usage.completion_tokens, 9);
      assert.equal(usage.prompt_tokens_details.cached_tokens, 20);
      const p = BEDROCK_PRICES.signed;
      // Metering prices every prompt token at the prompt price today (cache prices are catalog data only).
      const expected = 54 * p.prompt + 9 * p.completion;
      assert.ok(near(usage.cost, expected), `${usage.cost} vs ${expected}`);
      const gen = await call<{ data: Json }>(gw.server, 'GET', `/generation?id=${res.id}`, { token: gw.apiKey });
      assert.equal(gen.status, 200);
      assert.equal(gen.body.data.provider_name, 'bedrock-signed');
      assert.equal(gen.body.data.native_tokens_cached, 20);
      assert.equal(gen.body.data.tokens_completion, 9);
      assert.ok(near(gen.body.data.total_cost as number, expected));
    });

    it('stream: reasoning with its signature, a tool call, tool_calls finish and usage in the last chunk', async () => {
      gw.fake.queue({
        text: 'Let me check.',
        thinking: { text: 'Weather needs a tool.', signature: 'sig-bedrock-1' },
        toolCalls: [{ id: 'tooluse_1', name: 'get_weather', input: { city: 'Paris' } }],
        usage: { input: 40, output: 12, cacheRead: 0, cacheWrite: 0, reasoning: 0 },
      });
      const stream = await openai.chat.completions.create({
        model: 'anthropic/claude-sonnet-4.5',
        stream: true,
        reasoning_effort: 'low',
        tools: [
          {
            type: 'function',
            function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } },
          },
        ],
        tool_choice: 'required',
        messages: [{ role: 'user', content: 'Weather in Paris?' }],
      });
      let text = '';
      let reasoning = '';
      let args = '';
      let name = '';
      let finish: string | null = null;
      const signatures: string[] = [];
      let usage: { prompt_tokens: number; completion_tokens: number } | undefined;
      for await (const chunk of stream) {
        const choice = chunk.choices[0];
        const delta = (choice?.delta ?? {}) as Json & {
          reasoning?: string;
          reasoning_details?: { signature?: string }[];
        };
        text += choice?.delta.content ?? '';
        reasoning += delta.reasoning ?? '';
        for (const d of delta.reasoning_details ?? []) if (d.signature !== undefined) signatures.push(d.signature);
        for (const call of choice?.delta.tool_calls ?? []) {
          name += call.function?.name ?? '';
          args += call.function?.arguments ?? '';
        }
        finish = choice?.finish_reason ?? finish;
        if (chunk.usage) usage = chunk.usage;
      }
      assert.equal(text, 'Let me check.');
      assert.equal(reasoning, 'Weather needs a tool.');
      assert.deepEqual(signatures, ['sig-bedrock-1']);
      assert.equal(name, 'get_weather');
      assert.deepEqual(JSON.parse(args), { city: 'Paris' });
      assert.equal(finish, 'tool_calls');
      assert.deepEqual(usage && [usage.prompt_tokens, usage.completion_tokens], [40, 12]);
      assert.equal(last()?.path, `/model/${CLAUDE_ID}/converse-stream`);
      const body = sentBody();
      assert.deepEqual((body.toolConfig as Json).toolChoice, { any: {} });
      assert.deepEqual((body.additionalModelRequestFields as Json).thinking, { type: 'enabled', budget_tokens: 1024 });
    });

    it('tools round trip with an image: tool use and result, reasoning signature and image bytes reach Converse', async () => {
      const res = await openai.chat.completions.create({
        model: 'anthropic/claude-sonnet-4.5',
        tools: [{ type: 'function', function: { name: 'get_weather', parameters: { type: 'object' } } }],
        tool_choice: { type: 'function', function: { name: 'get_weather' } },
        messages: [
          {
            role: 'user',
            content: [
              { type: 'text', text: 'What is in this picture, and the weather?' },
              { type: 'image_url', image_url: { url: `data:image/png;base64,${PIXEL}` } },
            ],
          },
          {
            role: 'assistant',
            content: null,
            reasoning_details: [
              { type: 'reasoning.text', text: 'Use the tool.', signature: 'sig-0', format: 'anthropic-claude-v1' },
            ],
            tool_calls: [
              { id: 'tooluse_9', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } },
            ],
          } as OpenAI.ChatCompletionAssistantMessageParam,
          { role: 'tool', tool_call_id: 'tooluse_9', content: 'Sunny, 21°C' },
        ],
      });
      assert.equal(res.choices[0]?.message.content, 'Hello from the fake cloud.');
      const messages = sentBody().messages as Json[];
      assert.deepEqual(messages[0], {
        role: 'user',
        content: [
          { text: 'What is in this picture, and the weather?' },
          { image: { format: 'png', source: { bytes: PIXEL } } },
        ],
      });
      assert.deepEqual(messages[1], {
        role: 'assistant',
        content: [
          { reasoningContent: { reasoningText: { text: 'Use the tool.', signature: 'sig-0' } } },
          { toolUse: { toolUseId: 'tooluse_9', name: 'get_weather', input: { city: 'Paris' } } },
        ],
      });
      assert.deepEqual(messages[2], {
        role: 'user',
        content: [{ toolResult: { toolUseId: 'tooluse_9', content: [{ text: 'Sunny, 21°C' }] } }],
      });
      assert.deepEqual((sentBody().toolConfig as Json).toolChoice, { tool: { name: 'get_weather' } });
    });

    it('stop reasons: max_tokens is length, a guardrail intervention is content_filter', async () => {
      gw.fake.queue({ stop: 'max_tokens' });
      const cut = await openai.chat.completions.create({
        model: 'amazon/nova-pro',
        messages: [{ role: 'user', content: 'Hi' }],
      });
      assert.equal(cut.choices[0]?.finish_reason, 'length');
      assert.equal(last()?.path, `/model/${NOVA_ID}/converse`);
      assert.match(
        String(last()?.headers.authorization),
        new RegExp(`Credential=${PROFILE_KEY.accessKeyId}/`),
        'the named profile signed',
      );
      gw.fake.queue({ stop: 'safety' });
      const filtered = await openai.chat.completions.create({
        model: 'amazon/nova-pro',
        messages: [{ role: 'user', content: 'Hi' }],
      });
      assert.equal(filtered.choices[0]?.finish_reason, 'content_filter');
    });

    it('ThrottlingException falls back to the next endpoint (the API-key one, as a bearer token)', async () => {
      gw.fake.queue({ fail: 'throttle' });
      gw.fake.queue({ text: 'Served by the fallback.' });
      const res = await openai.chat.completions.create({
        model: 'anthropic/claude-sonnet-4.5',
        messages: [{ role: 'user', content: 'Hi' }],
      });
      assert.equal(res.choices[0]?.message.content, 'Served by the fallback.');
      assert.equal(gw.fake.requests.length, 2);
      assert.match(String(gw.fake.requests[0]?.headers.authorization), /^AWS4-HMAC-SHA256 /);
      assert.equal(gw.fake.requests[1]?.headers.authorization, `Bearer ${AWS_TEST.bedrockApiKey}`);
      assert.equal((res as unknown as { provider: string }).provider, 'Bedrock (API key)');
    });

    it('ValidationException is a 400 with Bedrock message; AccessDenied a 502 naming the credential problem', async () => {
      gw.fake.queue({ fail: 'validation' });
      const invalid = await call<{ error: { code: number; message: string } }>(gw.server, 'POST', '/chat/completions', {
        token: gw.apiKey,
        body: { model: 'anthropic/claude-sonnet-4.5', messages: [{ role: 'user', content: 'Hi' }] },
      });
      assert.equal(invalid.status, 400);
      assert.match(invalid.body.error.message, /Input is too long for requested model/);
      assert.equal(gw.fake.requests.length, 1, 'a validation error is not retried elsewhere');
      gw.fake.reset();
      gw.fake.queue({ fail: 'auth' });
      const denied = await call<{ error: { code: number; message: string } }>(gw.server, 'POST', '/chat/completions', {
        token: gw.apiKey,
        body: { model: 'amazon/nova-pro', messages: [{ role: 'user', content: 'Hi' }] },
      });
      assert.equal(denied.status, 502);
      assert.match(denied.body.error.message, /credentials.*access to the model/s);
      const text = JSON.stringify(denied.body);
      for (const secret of [AWS_TEST.secretAccessKey, PROFILE_KEY.secretAccessKey, AWS_TEST.bedrockApiKey])
        assert.ok(!text.includes(secret));
    });

    it('credentials that cannot be resolved: a 502 naming the problem, or the next endpoint serves', async () => {
      const pinned = await call<{ error: { message: string } }>(gw.server, 'POST', '/chat/completions', {
        token: gw.apiKey,
        body: {
          model: 'amazon/nova-lite',
          provider: { only: ['bedrock-noprofile'] },
          messages: [{ role: 'user', content: 'Hi' }],
        },
      });
      assert.equal(pinned.status, 502);
      assert.match(
        pinned.body.error.message,
        /credentials unavailable for provider bedrock-noprofile: AWS credentials/,
      );
      assert.equal(gw.fake.requests.length, 0, 'nothing unsigned reached Bedrock');
      const served = await openai.chat.completions.create({
        model: 'amazon/nova-lite',
        messages: [{ role: 'user', content: 'Hi' }],
      });
      assert.equal((served as unknown as { provider: string }).provider, 'Bedrock (API key)');
    });

    it('a mid-stream exception ends the stream with an error', async () => {
      gw.fake.queue({ fail: 'server', failMidStream: true });
      const res = await fetch(`${gw.server.api}/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${gw.apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'amazon/nova-pro', stream: true, messages: [{ role: 'user', content: 'Hi' }] }),
      });
      const text = await res.text();
      assert.match(text, /"error"/);
      assert.doesNotMatch(text, /\[DONE\][\s\S]*"error"/);
    });

    it('a redacting guardrail: Bedrock receives the redaction', async () => {
      const mgmt = gw.server.managementToken;
      const key = await call<{ key: string; data: { hash: string } }>(gw.server, 'POST', '/keys', {
        token: mgmt,
        body: { name: 'redacted' },
      });
      const g = await call<{ data: { id: string } }>(gw.server, 'POST', '/guardrails', {
        token: mgmt,
        body: { name: 'no-email', content_filter_builtins: [{ slug: 'email', action: 'redact' }] },
      });
      await call(gw.server, 'POST', `/guardrails/${g.body.data.id}/assignments/keys`, {
        token: mgmt,
        body: { key_hashes: [key.body.data.hash] },
      });
      const res = await call(gw.server, 'POST', '/chat/completions', {
        token: key.body.key,
        body: { model: 'amazon/nova-pro', messages: [{ role: 'user', content: `Write to ${EMAIL} please` }] },
      });
      assert.equal(res.status, 200);
      const sent = JSON.stringify(sentBody());
      assert.ok(!sent.includes(EMAIL));
      assert.match(sent, /Write to \[EMAIL\] please/);
    });
  });
}
