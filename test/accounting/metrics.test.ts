import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import Fastify from 'fastify';
import { callLogLine } from '../../src/observability/call-log.js';
import { Metrics, UNMATCHED_ROUTE } from '../../src/observability/metrics.js';
import { installHttpMetrics } from '../../src/http/plugins/http-metrics.js';
import { generation } from './fixtures.js';

const NAMES = [
  'switchyard_http_requests_total',
  'switchyard_http_request_duration_seconds',
  'switchyard_model_calls_total',
  'switchyard_upstream_errors_total',
  'switchyard_upstream_latency_seconds',
  'switchyard_tokens_total',
  'switchyard_cost_usd_total',
  'switchyard_content_filter_flags_total',
  'switchyard_ledger_queue_depth',
  'switchyard_ledger_flush_failures_total',
];

describe('metrics', () => {
  it('every metric is declared on its own registry (two instances do not collide)', async () => {
    const a = new Metrics();
    const b = new Metrics();
    a.recordFlag('prompt_injection');
    const text = await a.render();
    for (const name of NAMES) assert.match(text, new RegExp(`^# TYPE ${name} `, 'm'), name);
    assert.match(text, /^switchyard_content_filter_flags_total\{filter="prompt_injection"\} 1$/m);
    assert.doesNotMatch(await b.render(), /prompt_injection/);
  });

  it('typed recorders produce the labelled series', async () => {
    const m = new Metrics();
    m.recordModelCall({
      provider: 'openai',
      model: 'openai/gpt-4o',
      outcome: 'success',
      promptTokens: 100,
      completionTokens: 20,
      costUsd: 0.5,
    });
    m.recordModelCall({
      provider: 'openai',
      model: 'openai/gpt-4o',
      outcome: 'success',
      promptTokens: 1,
      costUsd: Number.NaN,
    });
    m.recordUpstreamError('anthropic', 529);
    m.recordUpstreamError('anthropic', null);
    m.observeUpstreamLatency('openai', 0.2);
    m.recordLedgerFlushFailure();
    m.trackLedger({ queueDepth: () => 7 });
    const text = await m.render();
    assert.match(
      text,
      /^switchyard_model_calls_total\{provider="openai",model="openai\/gpt-4o",outcome="success"\} 2$/m,
    );
    assert.match(text, /^switchyard_tokens_total\{provider="openai",model="openai\/gpt-4o",kind="prompt"\} 101$/m);
    assert.match(text, /^switchyard_tokens_total\{provider="openai",model="openai\/gpt-4o",kind="completion"\} 20$/m);
    assert.match(text, /^switchyard_cost_usd_total\{provider="openai",model="openai\/gpt-4o"\} 0.5$/m);
    assert.match(text, /^switchyard_upstream_errors_total\{provider="anthropic",status="529"\} 1$/m);
    assert.match(text, /^switchyard_upstream_errors_total\{provider="anthropic",status="none"\} 1$/m);
    assert.match(text, /^switchyard_upstream_latency_seconds_count\{provider="openai"\} 1$/m);
    assert.match(text, /^switchyard_ledger_flush_failures_total 1$/m);
    assert.match(text, /^switchyard_ledger_queue_depth 7$/m);
  });

  it('the onResponse hook labels by route pattern, never the raw URL, query or headers', async () => {
    const m = new Metrics();
    const app = Fastify();
    installHttpMetrics(app, m);
    app.get('/keys/:hash', async () => ({ ok: true }));
    await app.register(
      async (scoped) => {
        scoped.post('/scoped/:id', async () => ({ ok: true }));
      },
      { prefix: '/p' },
    );
    await app.ready();
    const secret = 'sk-sy-v1-' + 'f'.repeat(64);
    await app.inject({ method: 'GET', url: '/keys/abc123?token=leak', headers: { authorization: `Bearer ${secret}` } });
    await app.inject({ method: 'GET', url: '/keys/def456' });
    await app.inject({ method: 'GET', url: '/nowhere/secret-path' });
    await app.inject({ method: 'HEAD', url: '/keys/abc123' });
    await app.inject({ method: 'POST', url: '/p/scoped/7' });
    const text = await m.render();
    assert.match(text, /^switchyard_http_requests_total\{route="\/keys\/:hash",method="GET",status="200"\} 2$/m);
    assert.match(
      text,
      new RegExp(`^switchyard_http_requests_total\\{route="${UNMATCHED_ROUTE}",method="GET",status="404"\\} 1$`, 'm'),
    );
    assert.match(
      text,
      /^switchyard_http_request_duration_seconds_count\{route="\/keys\/:hash",method="GET",status="200"\} 2$/m,
    );
    assert.match(text, /^switchyard_http_requests_total\{route="\/keys\/:hash",method="HEAD",status="200"\} 1$/m);
    assert.match(text, /^switchyard_http_requests_total\{route="\/p\/scoped\/:id",method="POST",status="200"\} 1$/m);
    assert.equal(
      text.match(/^switchyard_http_requests_total\{/gm)?.length,
      4,
      'one series per route, method and status; no double count',
    );
    for (const leak of ['abc123', 'leak', secret, 'secret-path']) assert.ok(!text.includes(leak), leak);
    await app.close();
  });
});

describe('call log', () => {
  it('one line with the call facts and nothing secret', () => {
    const g = generation({
      keyHash: '0123456789abcdef'.repeat(4),
      attempts: [
        { provider: 'openai', model: 'gpt-4o-mini', status: 503 },
        { provider: 'azure', model: 'gpt-4o-mini', status: 200 },
      ],
      flags: ['prompt_injection'],
    });
    const line = callLogLine(g);
    assert.equal(line.key, '01234567');
    assert.equal(line.generation_id, g.id);
    assert.equal(line.request_id, g.requestId);
    assert.equal(line.outcome, 'success');
    assert.equal(line.status, 200);
    assert.equal(line.attempts, 2);
    assert.equal(line.cost_usd, g.costUsd);
    assert.equal(line.prompt_tokens, 10);
    assert.ok(!JSON.stringify(line).includes(g.keyHash));
    assert.equal('msg' in line, false, "the message is the log line's own msg, not repeated under call");
    assert.equal(callLogLine(generation({ cancelled: true })).outcome, 'cancelled');
    assert.equal(
      callLogLine(generation({ finishReason: 'error', attempts: [{ provider: 'x', model: 'y', status: 502 }] }))
        .outcome,
      'error',
    );
    assert.equal(callLogLine(generation({ attempts: [] })).status, null);
  });
});
