/**
 * One provider scenario suite, run over every wire adapter against the fake upstream
 * (the demo adapter has its own network-free subset at the end).
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startFakeUpstream, FAKE_TEXT, FAKE_TOOL_ARGS, FAKE_USAGE, type FakeUpstream } from '../fake-upstream/index.js';
import { createProviderRegistry, type ProviderKind, type ProviderRegistry } from '../../src/providers/index.js';
import {
  API_KEY,
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
  withTimeout,
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

const WIRE: { kind: ProviderKind; path: string }[] = [
  { kind: 'openai', path: '/v1/chat/completions' },
  { kind: 'anthropic', path: '/v1/messages' },
];

for (const { kind, path } of WIRE) {
  describe(`${kind} adapter`, () => {
    const ep = (overrides = {}) => endpointFor(kind, `${fake.url}/v1`, overrides);
    const adapter = () => registry.get(kind);

    test('JSON answer: content, finish, usage; upstream model name and auth headers', async () => {
      fake.reset();
      const res = await adapter().chat(ep(), chatRequest('vendor-model-1'), ctx());
      assert.equal(res.object, 'chat.completion');
      assert.equal(res.choices[0]?.message.content, FAKE_TEXT);
      assert.equal(res.choices[0]?.finish_reason, 'stop');
      assert.equal(res.model, 'vendor-model-1');
      assert.deepEqual(
        { p: res.usage.prompt_tokens, c: res.usage.completion_tokens, t: res.usage.total_tokens },
        { p: FAKE_USAGE.prompt_tokens, c: FAKE_USAGE.completion_tokens, t: FAKE_USAGE.total_tokens },
      );
      const seen = fake.requests[0];
      assert.ok(seen !== undefined);
      assert.equal(seen.path, path);
      assert.equal(seen.body?.model, 'vendor-model-1');
      assert.equal(seen.headers['x-extra-header'], 'yes');
      if (kind === 'openai') {
        assert.equal(seen.headers.authorization, `Bearer ${API_KEY}`);
      } else {
        assert.equal(seen.headers['x-api-key'], API_KEY);
        assert.equal(seen.headers['anthropic-version'], '2023-06-01');
        assert.equal(seen.body?.system, 'Be brief.');
        assert.equal(seen.body?.max_tokens, 4096);
      }
    });

    test('stream: text in order, finish, usage only in the last chunk', async () => {
      fake.reset();
      const chunks = await collect(await adapter().chatStream(ep(), chatRequest('m', { stream: true }), ctx()));
      assert.equal(textOf(chunks), FAKE_TEXT);
      assert.deepEqual(finishOf(chunks), ['stop']);
      assert.equal(chunks[0]?.choices[0]?.delta.role, 'assistant');
      const usage = assertUsageLast(chunks);
      assert.equal(usage.prompt_tokens, FAKE_USAGE.prompt_tokens);
      assert.equal(usage.completion_tokens, FAKE_USAGE.completion_tokens);
      assert.equal(usage.estimated, undefined);
      if (kind === 'openai') assert.deepEqual(fake.requests[0]?.body?.stream_options, { include_usage: true });
      else assert.equal(fake.requests[0]?.body?.stream, true);
    });

    test('tool calls, JSON and stream', async () => {
      const req = chatRequest('m+tool-call', { tools: [WEATHER_TOOL], tool_choice: 'auto' });
      const res = await adapter().chat(ep(), req, ctx());
      const call = res.choices[0]?.message.tool_calls?.[0];
      assert.equal(call?.function.name, 'get_weather');
      assert.deepEqual(JSON.parse(call?.function.arguments ?? ''), JSON.parse(FAKE_TOOL_ARGS));
      assert.equal(res.choices[0]?.finish_reason, 'tool_calls');
      const chunks = await collect(await adapter().chatStream(ep(), { ...req, stream: true }, ctx()));
      const calls = toolCallsOf(chunks);
      assert.equal(calls.length, 1);
      assert.equal(calls[0]?.name, 'get_weather');
      assert.ok((calls[0]?.id ?? '') !== '');
      assert.deepEqual(JSON.parse(calls[0]?.arguments ?? ''), { city: 'Paris' });
      assert.deepEqual(finishOf(chunks), ['tool_calls']);
      assertUsageLast(chunks);
    });

    const errorCases: { behaviour: string; status: number; retryable: boolean }[] = [
      { behaviour: 'fail-400', status: 400, retryable: false },
      { behaviour: 'fail-401', status: 502, retryable: true },
      { behaviour: 'fail-429', status: 429, retryable: true },
      { behaviour: 'fail-500', status: 502, retryable: true },
      { behaviour: kind === 'anthropic' ? 'fail-529' : 'fail-503', status: 503, retryable: true },
    ];
    for (const c of errorCases) {
      test(`error mapping ${c.behaviour} → ${c.status} (JSON and stream)`, async () => {
        for (const stream of [false, true]) {
          const req = chatRequest(`m/${c.behaviour}`, { stream });
          const p = stream ? adapter().chatStream(ep(), req, ctx()) : adapter().chat(ep(), req, ctx());
          const err = await upstreamFailure(p);
          assert.equal(err.status, c.status);
          assert.equal(err.retryable, c.retryable);
          assert.equal(err.kind, 'http');
          assert.equal(err.providerId, `fake-${kind}`);
          assert.equal(err.upstreamStatus, Number(c.behaviour.slice(5)));
          assert.ok(!err.message.includes(API_KEY), 'key never echoed');
          assert.ok(!JSON.stringify(err.metadata).includes(API_KEY));
          if (c.status === 429) {
            assert.equal(err.retryAfterMs, 2000);
            assert.equal(err.headers['retry-after'], '2');
          }
        }
      });
    }

    test('slow first byte → retryable timeout', async () => {
      const t0 = Date.now();
      const err = await upstreamFailure(
        adapter().chatStream(
          ep({ timeouts: { connectMs: 1000, firstByteMs: 100, idleMs: 1000 } }),
          chatRequest('m/slow-first-byte-6000', { stream: true }),
          ctx(),
        ),
      );
      assert.equal(err.kind, 'timeout');
      assert.equal(err.retryable, true);
      assert.equal(err.status, 408);
      // Well before the upstream's first byte (6 s), with room for a loaded machine.
      assert.ok(Date.now() - t0 < 4000);
      const err2 = await upstreamFailure(
        adapter().chat(
          ep({ timeouts: { connectMs: 1000, firstByteMs: 100, idleMs: 1000 } }),
          chatRequest('m/slow-first-byte-6000'),
          ctx(),
        ),
      );
      assert.equal(err2.kind, 'timeout');
    });

    test('idle timeout between chunks → iterator throws a retryable timeout', async () => {
      const stream = await adapter().chatStream(
        ep({ timeouts: { connectMs: 1000, firstByteMs: 1000, idleMs: 80 } }),
        chatRequest('m/chunk-delay-400', { stream: true }),
        ctx(),
      );
      const err = await upstreamFailure(collect(stream));
      assert.equal(err.kind, 'timeout');
      assert.equal(err.retryable, true);
    });

    test('cut stream → iterator throws after some chunks', async () => {
      const stream = await adapter().chatStream(ep(), chatRequest('m/cut-stream-after-4', { stream: true }), ctx());
      const seen: string[] = [];
      const err = await upstreamFailure(
        (async () => {
          for await (const chunk of stream) seen.push(chunk.choices[0]?.delta.content ?? '');
        })(),
      );
      assert.ok(seen.length >= 1, 'some chunks arrived before the failure');
      assert.equal(err.retryable, true);
      assert.equal(err.status, 502);
    });

    test('cut JSON body → protocol/connection error', async () => {
      const err = await upstreamFailure(adapter().chat(ep(), chatRequest('m/cut-stream-after-1'), ctx()));
      assert.equal(err.status, 502);
      assert.equal(err.retryable, true);
    });

    test('mid-stream error event → iterator throws UpstreamError(kind stream)', async () => {
      const stream = await adapter().chatStream(ep(), chatRequest('m/mid-stream-error', { stream: true }), ctx());
      const err = await upstreamFailure(collect(stream));
      assert.equal(err.kind, 'stream');
      assert.ok(err.status === 502 || err.status === 503);
    });

    test('invalid JSON → 502 protocol error', async () => {
      const err = await upstreamFailure(adapter().chat(ep(), chatRequest('m/invalid-json'), ctx()));
      assert.equal(err.kind, 'protocol');
      assert.equal(err.status, 502);
    });

    test('abort before headers aborts the upstream request (the fake sees the socket close)', async () => {
      fake.reset();
      const ac = new AbortController();
      const p = adapter().chatStream(ep(), chatRequest('m/hang', { stream: true }), ctx(ac.signal));
      await withTimeout(
        (async () => {
          while (fake.requests.length === 0) await new Promise((r) => setTimeout(r, 5));
        })(),
        2000,
        'request to arrive',
      );
      ac.abort();
      const err = await upstreamFailure(p);
      assert.equal(err.kind, 'aborted');
      assert.equal(err.retryable, false);
      const seen = fake.requests[0];
      assert.ok(seen !== undefined);
      await withTimeout(seen.closed, 2000, 'upstream socket close');
      assert.equal(seen.closedEarly, true);
    });

    test('abort mid-stream: iterator throws aborted, upstream connection closed', async () => {
      fake.reset();
      const ac = new AbortController();
      const stream = await adapter().chatStream(
        ep(),
        chatRequest('m/chunk-delay-200', { stream: true }),
        ctx(ac.signal),
      );
      const err = await upstreamFailure(
        (async () => {
          for await (const _ of stream) ac.abort();
        })(),
      );
      assert.equal(err.kind, 'aborted');
      const seen = fake.requests[0];
      assert.ok(seen !== undefined);
      await withTimeout(seen.closed, 2000, 'upstream socket close');
      assert.equal(seen.closedEarly, true);
    });

    test('breaking out of the loop closes the upstream stream', async () => {
      fake.reset();
      const stream = await adapter().chatStream(ep(), chatRequest('m/chunk-delay-100', { stream: true }), ctx());
      for await (const _ of stream) break;
      const seen = fake.requests[0];
      assert.ok(seen !== undefined);
      await withTimeout(seen.closed, 2000, 'upstream socket close');
      assert.equal(seen.closedEarly, true);
    });

    test('completed streams keep the socket alive for the next call', async () => {
      fake.reset();
      const own = createProviderRegistry(); // fresh pool: any new socket would show up as a new port
      try {
        await collect(await own.get(kind).chatStream(ep(), chatRequest('m', { stream: true }), ctx()));
        await new Promise((r) => setTimeout(r, 10)); // undici frees the socket a tick after the body ends
        await own.get(kind).chat(ep(), chatRequest('m'), ctx());
        await new Promise((r) => setTimeout(r, 10));
        await collect(await own.get(kind).chatStream(ep(), chatRequest('m', { stream: true }), ctx()));
      } finally {
        await own.close();
      }
      const ports = fake.requests.map((r) => r.remotePort);
      assert.equal(new Set(ports).size, 1, `one socket reused, got ${ports.join(' ')}`);
    });

    test('connection refused → retryable 502 connection error', async () => {
      const err = await upstreamFailure(
        adapter().chat(ep({ baseUrl: 'http://127.0.0.1:1/v1' }), chatRequest('m'), ctx()),
      );
      assert.equal(err.kind, 'connection');
      assert.equal(err.status, 502);
      assert.equal(err.retryable, true);
    });
  });
}
