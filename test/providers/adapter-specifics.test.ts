/** Adapter-specific behaviour beyond the shared scenario suite (usage estimation, cache tokens, demo). */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startFakeUpstream, FAKE_TEXT, FAKE_USAGE, type FakeUpstream } from '../fake-upstream/index.js';
import { createProviderRegistry, type ProviderRegistry } from '../../src/providers/index.js';
import {
  assertUsageLast,
  chatRequest,
  collect,
  ctx,
  endpointFor,
  finishOf,
  textOf,
  toolCallsOf,
  upstreamFailure,
  WEATHER_TOOL,
} from './scenario-kit.js';

let fake: FakeUpstream;
let registry: ProviderRegistry;

before(async () => {
  fake = await startFakeUpstream();
  registry = createProviderRegistry();
});
after(async () => {
  await registry.close();
  await fake.close();
});

describe('openai adapter specifics', () => {
  test('no usage from upstream → estimated usage in JSON; a stream ends with a usage-less last chunk (the gateway estimates it, once)', async () => {
    const ep = endpointFor('openai', `${fake.url}/v1`);
    const chunks = await collect(
      await registry.get('openai').chatStream(ep, chatRequest('m/no-usage', { stream: true }), ctx()),
    );
    assert.deepEqual(chunks.at(-1)?.choices, [], 'the stream still ends with its last chunk');
    assert.equal(chunks.filter((c) => c.usage !== undefined).length, 0, 'no adapter estimate');
    const res = await registry.get('openai').chat(ep, chatRequest('m/no-usage'), ctx());
    assert.equal(res.usage.estimated, true);
  });

  test('a stream without [DONE] is accepted once finish_reason was seen', async () => {
    const ep = endpointFor('openai', `${fake.url}/v1`);
    const chunks = await collect(
      await registry.get('openai').chatStream(ep, chatRequest('m/no-done', { stream: true }), ctx()),
    );
    assert.equal(textOf(chunks), FAKE_TEXT, 'finish_reason seen: a missing [DONE] is tolerated');
  });

  test('cached tokens are reported in prompt_tokens_details', async () => {
    const ep = endpointFor('openai', `${fake.url}/v1`);
    const res = await registry.get('openai').chat(ep, chatRequest('m/cache'), ctx());
    assert.equal(res.usage.prompt_tokens_details?.cached_tokens, 4);
  });
});

describe('anthropic adapter specifics', () => {
  test('cache tokens count into prompt_tokens and details', async () => {
    const ep = endpointFor('anthropic', `${fake.url}/v1`);
    const res = await registry.get('anthropic').chat(ep, chatRequest('m/cache'), ctx());
    assert.equal(res.usage.prompt_tokens, FAKE_USAGE.prompt_tokens);
    assert.deepEqual(res.usage.prompt_tokens_details, { cached_tokens: 4, cache_write_tokens: 2 });
    const chunks = await collect(
      await registry.get('anthropic').chatStream(ep, chatRequest('m/cache', { stream: true }), ctx()),
    );
    assert.equal(assertUsageLast(chunks).prompt_tokens, FAKE_USAGE.prompt_tokens);
  });
});

describe('demo adapter', () => {
  const ep = endpointFor('demo', 'demo://local', { apiKey: null });

  test('JSON answer is deterministic with counted usage', async () => {
    const a = await registry.get('demo').chat(ep, chatRequest('demo-1'), ctx());
    const b = await registry.get('demo').chat(ep, chatRequest('demo-1'), ctx());
    assert.deepEqual({ ...a, created: 0 }, { ...b, created: 0 });
    assert.match(a.choices[0]?.message.content ?? '', /What is the weather in Paris\?/);
    assert.ok(a.usage.prompt_tokens > 0 && a.usage.completion_tokens > 0);
    assert.equal(a.usage.total_tokens, a.usage.prompt_tokens + a.usage.completion_tokens);
  });

  test('stream equals the JSON answer, word by word, usage last', async () => {
    const json = await registry.get('demo').chat(ep, chatRequest('demo-1'), ctx());
    const chunks = await collect(
      await registry.get('demo').chatStream(ep, chatRequest('demo-1', { stream: true }), ctx()),
    );
    assert.equal(textOf(chunks), json.choices[0]?.message.content);
    assert.ok(chunks.length > 4);
    assert.deepEqual(assertUsageLast(chunks), json.usage);
    assert.deepEqual(finishOf(chunks), ['stop']);
  });

  test('max_tokens truncates with finish length', async () => {
    const res = await registry.get('demo').chat(ep, chatRequest('demo-1', { max_tokens: 2 }), ctx());
    assert.equal(res.choices[0]?.finish_reason, 'length');
    assert.equal(res.usage.completion_tokens, 2);
  });

  test('tool calls', async () => {
    const req = chatRequest('demo-1', { tools: [WEATHER_TOOL] });
    const res = await registry.get('demo').chat(ep, req, ctx());
    assert.equal(res.choices[0]?.finish_reason, 'tool_calls');
    const call = res.choices[0]?.message.tool_calls?.[0];
    assert.equal(call?.function.name, 'get_weather');
    assert.equal(typeof (JSON.parse(call?.function.arguments ?? '{}') as { city?: unknown }).city, 'string');
    const chunks = await collect(await registry.get('demo').chatStream(ep, { ...req, stream: true }, ctx()));
    assert.equal(toolCallsOf(chunks)[0]?.arguments, call?.function.arguments);
    // after the tool result the demo answers in text
    const followUp = await registry.get('demo').chat(
      ep,
      chatRequest('demo-1', {
        tools: [WEATHER_TOOL],
        messages: [
          ...req.messages,
          {
            role: 'assistant',
            content: null,
            tool_calls: [call ?? { id: 'x', type: 'function', function: { name: 'get_weather', arguments: '{}' } }],
          },
          { role: 'tool', tool_call_id: call?.id ?? 'x', content: 'sunny' },
        ],
      }),
      ctx(),
    );
    assert.match(followUp.choices[0]?.message.content ?? '', /sunny/);
  });

  test('abort stops the stream', async () => {
    const ac = new AbortController();
    const stream = await registry
      .get('demo')
      .chatStream(
        endpointFor('demo', 'demo://local?delay_ms=20', { apiKey: null }),
        chatRequest('demo-1', { stream: true }),
        ctx(ac.signal),
      );
    const err = await upstreamFailure(
      (async () => {
        for await (const _ of stream) ac.abort();
      })(),
    );
    assert.equal(err.kind, 'aborted');
  });
});
