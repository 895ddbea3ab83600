import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, beforeEach, describe, it } from 'node:test';
import { FAKE_PIECES, FAKE_TEXT, FAKE_USAGE } from '../fake-upstream/index.js';
import { startGateway, type GatewayHarness } from '../support/gateway.js';
import { startOtlpReceiver, type OtlpReceiver, type ReceivedSpan } from '../support/otlp-receiver.js';
import { call } from '../support/server.js';

const SERVER = 2;
const CLIENT = 3;
const ERROR = 2;

/** A client's W3C trace context: the call's span must continue it. */
function clientContext(sampled = true) {
  const traceId = randomBytes(16).toString('hex');
  const spanId = randomBytes(8).toString('hex');
  return {
    traceId,
    spanId,
    headers: { traceparent: `00-${traceId}-${spanId}-${sampled ? '01' : '00'}`, tracestate: 'vendor=abc' },
  };
}

/** Text that would only reach an exported span if a prompt leaked into it. */
const promptMarker = () => `secret prompt ${randomBytes(6).toString('hex')}`;

function inTrace(spans: ReceivedSpan[], traceId: string) {
  const mine = spans.filter((s) => s.traceId === traceId);
  const calls = mine.filter((s) => s.kind === SERVER);
  const attempts = mine
    .filter((s) => s.kind === CLIENT)
    .sort(
      (a, b) => Number(a.attributes['switchyard.fallback_index']) - Number(b.attributes['switchyard.fallback_index']),
    );
  return { mine, calls, attempts };
}

describe('OpenTelemetry traces of model calls', () => {
  let receiver: OtlpReceiver;
  let gw: GatewayHarness;

  before(async () => {
    receiver = await startOtlpReceiver();
    gw = await startGateway({
      dialect: 'sqlite',
      env: {
        OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: receiver.url,
        OTEL_SERVICE_NAME: 'switchyard-test',
        OTEL_BSP_SCHEDULE_DELAY: '50',
      },
    });
  });
  after(async () => {
    await gw.close();
    await receiver.close();
  });
  beforeEach(() => gw.fake.reset());

  it('a call with a fallback: the call span continues the client trace, one CLIENT span per attempt', async () => {
    const client = clientContext();
    const prompt = promptMarker();
    gw.fake.queue('fail-500');
    const res = await call<{ id: string; provider: string }>(gw.server, 'POST', '/chat/completions', {
      token: gw.apiKey,
      headers: client.headers,
      body: { model: 'openai/gpt-test', messages: [{ role: 'user', content: prompt }] },
    });
    assert.equal(res.status, 200);
    assert.equal(res.body.provider, 'Fake OpenAI B');

    const spans = await receiver.waitFor((all) => inTrace(all, client.traceId).mine.length >= 3);
    const { mine, calls, attempts } = inTrace(spans, client.traceId);
    assert.equal(mine.length, 3);
    assert.equal(calls.length, 1);
    const [span] = calls;
    assert.ok(span !== undefined);
    assert.equal(span.parentSpanId, client.spanId, 'the call span is a child of the client span');
    assert.equal(span.traceState, 'vendor=abc');
    assert.equal(span.name, 'chat openai/gpt-test');
    assert.equal(span.resource['service.name'], 'switchyard-test');
    const a = span.attributes;
    assert.equal(a['gen_ai.operation.name'], 'chat');
    assert.equal(a['gen_ai.request.model'], 'openai/gpt-test');
    assert.equal(a['gen_ai.response.model'], 'openai/gpt-test');
    assert.equal(a['gen_ai.provider.name'], 'fake-openai-b');
    assert.equal(a['gen_ai.response.id'], res.body.id);
    assert.equal(a['gen_ai.usage.input_tokens'], FAKE_USAGE.prompt_tokens);
    assert.equal(a['gen_ai.usage.output_tokens'], FAKE_USAGE.completion_tokens);
    assert.deepEqual(a['gen_ai.response.finish_reasons'], ['stop']);
    assert.equal(a['switchyard.outcome'], 'success');
    assert.equal(a['switchyard.attempts'], 2);
    assert.ok(Number(a['switchyard.cost_usd']) > 0);
    assert.match(String(a['switchyard.key_hash']), /^[0-9a-f]{8}$/);
    assert.notEqual(span.status, ERROR);

    assert.equal(attempts.length, 2);
    const [failed, served] = attempts;
    assert.ok(failed !== undefined && served !== undefined);
    for (const attempt of attempts) assert.equal(attempt.parentSpanId, span.spanId);
    assert.equal(failed.name, 'chat gpt-test');
    assert.equal(failed.attributes['switchyard.fallback_index'], 0);
    assert.equal(failed.attributes['gen_ai.provider.name'], 'fake-openai');
    assert.equal(failed.attributes['http.response.status_code'], 500);
    assert.equal(failed.attributes['server.address'], '127.0.0.1');
    assert.equal(failed.status, ERROR);
    assert.ok(String(failed.attributes['error.type']).length > 0);
    assert.equal(served.name, 'chat gpt-test-b');
    assert.equal(served.attributes['switchyard.fallback_index'], 1);
    assert.equal(served.attributes['gen_ai.request.model'], 'gpt-test-b');
    assert.equal(served.attributes['gen_ai.usage.output_tokens'], FAKE_USAGE.completion_tokens);
    assert.equal(typeof served.attributes['gen_ai.response.id'], 'string');
    assert.notEqual(served.status, ERROR);

    // Each upstream request carries its attempt span's context, and the client's trace state.
    assert.deepEqual(
      gw.fake.requests.map((r) => [r.headers.traceparent, r.headers.tracestate]),
      attempts.map((s) => [`00-${client.traceId}-${s.spanId}-01`, 'vendor=abc']),
    );

    const exported = receiver.bodies.join('\n');
    assert.ok(!exported.includes(prompt), 'no prompt text is exported');
    assert.ok(!exported.includes(FAKE_TEXT), 'no completion text is exported');
    assert.ok(!exported.includes(gw.apiKey), 'no token is exported');
    assert.ok(receiver.contentTypes.every((t) => t.startsWith('application/json')));
  });

  it('a streamed call: the served attempt ends with the stream and carries its usage', async () => {
    const client = clientContext();
    const prompt = promptMarker();
    const res = await fetch(`${gw.server.api}/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${gw.apiKey}`, 'content-type': 'application/json', ...client.headers },
      body: JSON.stringify({ model: 'openai/gpt-test', stream: true, messages: [{ role: 'user', content: prompt }] }),
    });
    assert.equal(res.status, 200);
    assert.ok((await res.text()).includes('[DONE]'));

    const spans = await receiver.waitFor((all) => inTrace(all, client.traceId).mine.length >= 2);
    const { calls, attempts } = inTrace(spans, client.traceId);
    const [span] = calls;
    const [served] = attempts;
    assert.ok(span !== undefined && served !== undefined);
    assert.equal(span.parentSpanId, client.spanId);
    assert.equal(served.parentSpanId, span.spanId);
    assert.equal(span.attributes['switchyard.stream'], true);
    assert.equal(span.attributes['gen_ai.usage.output_tokens'], FAKE_USAGE.completion_tokens);
    assert.equal(served.attributes['gen_ai.usage.output_tokens'], FAKE_USAGE.completion_tokens);
    assert.equal(span.attributes['switchyard.outcome'], 'success');
    const exported = receiver.bodies.join('\n');
    assert.ok(!exported.includes(prompt));
    assert.ok(!exported.includes(FAKE_PIECES.slice(1, 4).join('')), 'no streamed text is exported');
  });

  it('a client trace that is not sampled exports no spans', async () => {
    const unsampled = clientContext(false);
    const sampled = clientContext();
    for (const client of [unsampled, sampled]) {
      const res = await call(gw.server, 'POST', '/chat/completions', {
        token: gw.apiKey,
        headers: client.headers,
        body: { model: 'openai/gpt-test', messages: [{ role: 'user', content: 'hi' }] },
      });
      assert.equal(res.status, 200);
    }
    // The sampled call came second: once its spans are in, the first call's would be too.
    const spans = await receiver.waitFor((all) => inTrace(all, sampled.traceId).mine.length >= 2);
    assert.equal(inTrace(spans, unsampled.traceId).mine.length, 0);
  });

  it('a call without traceparent starts its own trace; a refused one is a span with its outcome', async () => {
    const refused = await call(gw.server, 'POST', '/chat/completions', {
      token: gw.apiKey,
      body: { model: 'nobody/no-such-model', messages: [{ role: 'user', content: 'hi' }] },
    });
    assert.ok(refused.status >= 400 && refused.status < 500);
    const spans = await receiver.waitFor((all) =>
      all.some((s) => s.attributes['gen_ai.request.model'] === 'nobody/no-such-model'),
    );
    const span = spans.find((s) => s.attributes['gen_ai.request.model'] === 'nobody/no-such-model');
    assert.ok(span !== undefined);
    assert.equal(span.parentSpanId, '', 'a root span');
    assert.equal(span.attributes['switchyard.outcome'], 'refused');
    assert.equal(span.attributes['http.response.status_code'], refused.status);
    assert.equal(typeof span.attributes['error.type'], 'string');
    assert.equal(spans.filter((s) => s.parentSpanId === span.spanId).length, 0, 'nothing was sent upstream');
  });

  it('an upstream failure on every endpoint marks the call span as an error', async () => {
    const client = clientContext();
    gw.fake.queue('fail-503');
    gw.fake.queue('fail-503');
    const res = await call(gw.server, 'POST', '/chat/completions', {
      token: gw.apiKey,
      headers: client.headers,
      body: { model: 'openai/gpt-test', messages: [{ role: 'user', content: 'hi' }] },
    });
    assert.ok(res.status >= 500);
    const spans = await receiver.waitFor((all) => inTrace(all, client.traceId).mine.length >= 3);
    const { calls, attempts } = inTrace(spans, client.traceId);
    assert.equal(calls[0]?.status, ERROR);
    assert.equal(calls[0]?.attributes['switchyard.outcome'], 'error');
    assert.deepEqual(
      attempts.map((s) => s.status),
      [ERROR, ERROR],
    );
  });
});

describe('OpenTelemetry sampling (OTEL_TRACES_SAMPLER)', () => {
  it('parentbased_traceidratio at 0: only calls whose client trace is sampled are traced', async () => {
    const receiver = await startOtlpReceiver();
    const gw = await startGateway({
      dialect: 'sqlite',
      env: {
        OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: receiver.url,
        OTEL_BSP_SCHEDULE_DELAY: '50',
        OTEL_TRACES_SAMPLER: 'parentbased_traceidratio',
        OTEL_TRACES_SAMPLER_ARG: '0',
      },
    });
    try {
      const sampled = clientContext();
      for (const headers of [undefined, sampled.headers]) {
        const res = await call(gw.server, 'POST', '/chat/completions', {
          token: gw.apiKey,
          headers,
          body: { model: 'openai/gpt-test', messages: [{ role: 'user', content: 'hi' }] },
        });
        assert.equal(res.status, 200);
      }
      const spans = await receiver.waitFor((all) => inTrace(all, sampled.traceId).mine.length >= 2);
      assert.deepEqual(
        spans.filter((s) => s.traceId !== sampled.traceId),
        [],
        'the call without a client trace was not sampled',
      );
      assert.deepEqual(
        gw.fake.requests.map((r) => r.headers.traceparent?.slice(0, 35)),
        [undefined, `00-${sampled.traceId}`],
      );
    } finally {
      await gw.close();
      await receiver.close();
    }
  });
});

describe('OpenTelemetry export on close, and switched off', () => {
  it('closing the server exports the spans still queued', async () => {
    const receiver = await startOtlpReceiver();
    // Ten minutes: only the shutdown can have sent them.
    const gw = await startGateway({
      dialect: 'sqlite',
      env: { OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: receiver.url, OTEL_BSP_SCHEDULE_DELAY: '600000' },
    });
    const client = clientContext();
    try {
      const res = await call(gw.server, 'POST', '/chat/completions', {
        token: gw.apiKey,
        headers: client.headers,
        body: { model: 'openai/gpt-test', messages: [{ role: 'user', content: 'hi' }] },
      });
      assert.equal(res.status, 200);
      assert.equal(inTrace(receiver.spans(), client.traceId).mine.length, 0, 'nothing exported before close');
    } finally {
      await gw.close();
    }
    assert.equal(inTrace(receiver.spans(), client.traceId).mine.length, 2);
    await receiver.close();
  });

  it('SWITCHYARD_OTEL=false: the endpoint receives nothing, even after the server closed', async () => {
    const receiver = await startOtlpReceiver();
    const gw = await startGateway({
      dialect: 'sqlite',
      env: { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url.replace(/\/v1\/traces$/, ''), SWITCHYARD_OTEL: 'false' },
    });
    try {
      const client = clientContext();
      const res = await call(gw.server, 'POST', '/chat/completions', {
        token: gw.apiKey,
        headers: client.headers,
        body: { model: 'openai/gpt-test', messages: [{ role: 'user', content: 'hi' }] },
      });
      assert.equal(res.status, 200);
      assert.equal(gw.fake.requests.at(-1)?.headers.traceparent, undefined, 'no trace context goes upstream');
    } finally {
      await gw.close();
    }
    assert.deepEqual(receiver.bodies, []);
    await receiver.close();
  });
});
