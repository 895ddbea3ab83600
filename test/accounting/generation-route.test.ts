import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { OpenRouter } from '@openrouter/sdk';
import type { Meter } from '../../src/domain/accounting/types.js';
import { call, dialects, startTestServer, type TestServer } from '../support/server.js';
import { generation } from './fixtures.js';

/** The wire keys of the generation object, all of which must be present. */
const GENERATION_KEYS = [
  'id',
  'created_at',
  'model',
  'origin',
  'api_type',
  'api_surface',
  'app_id',
  'http_referer',
  'user_agent',
  'external_user',
  'workspace_id',
  'preset_id',
  'session_id',
  'request_id',
  'provider_name',
  'router',
  'streamed',
  'cancelled',
  'finish_reason',
  'native_finish_reason',
  'data_region',
  'is_byok',
  'total_cost',
  'usage',
  'upstream_inference_cost',
  'cache_discount',
  'tokens_prompt',
  'tokens_completion',
  'native_tokens_prompt',
  'native_tokens_completion',
  'native_tokens_reasoning',
  'native_tokens_cached',
  'native_tokens_completion_images',
  'num_media_prompt',
  'num_media_completion',
  'num_input_audio_prompt',
  'num_search_results',
  'num_fetches',
  'latency',
  'generation_time',
  'moderation_latency',
  'service_tier',
  'upstream_id',
  'web_search_engine',
  'response_cache_source_id',
  'provider_responses',
  // Switchyard's extensions: the content filters that flagged the request; why it was refused (null here).
  'content_filter_flags',
  'refusal',
];

for (const dialect of dialects()) {
  describe(`GET /generation and /metrics, as wired in the app (${dialect})`, () => {
    let server: TestServer;
    let meter: Meter;
    const keys: { hash: string; token: string }[] = [];

    before(async () => {
      // Batches are written only by the explicit flushes below: a timer flush between a settle and
      // the read of the queue (one HTTP round trip, slow on a loaded machine) would empty it.
      server = await startTestServer({ dialect, env: { SWITCHYARD_LEDGER_FLUSH_MS: '60000' } });
      meter = server.running.services.meter;
      for (const name of ['one', 'two']) {
        const created = await call<{ data: { hash: string }; key: string }>(server, 'POST', '/keys', {
          token: server.managementToken,
          body: { name },
        });
        assert.equal(created.status, 201);
        keys.push({ hash: created.body.data.hash, token: created.body.key });
      }
    });
    after(() => server.close());

    const key = (i: number) => {
      const k = keys[i];
      assert.ok(k !== undefined);
      return k;
    };

    it('answers the reference shape, every key present, from the queue and after the flush', async () => {
      const g = generation({
        keyHash: key(0).hash,
        workspaceId: '00000000-0000-4000-8000-00000000abcd',
        streamed: true,
        reasoningTokens: 4,
        cachedTokens: 2,
        costUsd: 0.0123,
        attempts: [
          { provider: 'openai', model: 'gpt-4o-mini', status: 503 },
          { provider: 'azure', model: 'gpt-4o-mini', status: 200 },
        ],
      });
      meter.settle({ accounts: [g.keyHash], amountUsd: 0 }, g);
      for (const phase of ['queued', 'flushed']) {
        if (phase === 'flushed') await meter.flush();
        const res = await call<{ data: Record<string, unknown> }>(server, 'GET', `/generation?id=${g.id}`, {
          token: key(0).token,
        });
        assert.equal(res.status, 200, phase);
        assert.deepEqual(Object.keys(res.body.data).sort(), [...GENERATION_KEYS].sort());
        const d = res.body.data;
        assert.equal(d.id, g.id);
        assert.equal(d.model, g.model);
        assert.equal(d.provider_name, 'openai');
        assert.equal(d.total_cost, 0.0123);
        assert.equal(d.usage, 0.0123);
        assert.equal(d.tokens_prompt, 10);
        assert.equal(d.native_tokens_reasoning, 4);
        assert.equal(d.native_tokens_cached, 2);
        assert.equal(d.streamed, true);
        assert.equal(d.cancelled, false);
        assert.equal(d.api_type, 'completions');
        assert.equal(d.api_surface, 'completions', 'the fixture is a legacy completions call');
        assert.equal(d.is_byok, false);
        assert.equal(d.data_region, 'global');
        assert.equal(d.app_id, null);
        assert.equal(d.http_referer, null);
        assert.equal(d.latency, 120);
        assert.equal(d.generation_time, 450);
        assert.equal(d.workspace_id, g.workspaceId);
        assert.deepEqual(d.provider_responses, [
          { status: 503, provider_name: 'openai', model_permaslug: 'gpt-4o-mini' },
          { status: 200, provider_name: 'azure', model_permaslug: 'gpt-4o-mini' },
        ]);
      }
    });

    it('parses with the official SDK', async () => {
      const g = generation({
        keyHash: key(0).hash,
        upstreamId: null,
        finishReason: null,
        presetId: 'p-1',
        attempts: [],
      });
      meter.settle({ accounts: [g.keyHash], amountUsd: 0 }, g);
      const sdk = new OpenRouter({ apiKey: key(0).token, serverURL: server.api, retryConfig: { strategy: 'none' } });
      const res = await sdk.generations.getGeneration({ id: g.id });
      assert.equal(res.data.id, g.id);
      assert.equal(res.data.totalCost, g.costUsd);
      assert.equal(res.data.presetId, 'p-1');
      assert.equal(res.data.upstreamId, null);
      assert.deepEqual(res.data.providerResponses, []);
    });

    it("404 for another key's generation and for unknown ids; 400 without id; management keys refused", async () => {
      const g = generation({ keyHash: key(0).hash });
      meter.settle({ accounts: [g.keyHash], amountUsd: 0 }, g);
      const other = await call<{ error: { code: number } }>(server, 'GET', `/generation?id=${g.id}`, {
        token: key(1).token,
      });
      assert.equal(other.status, 404);
      assert.equal(other.body.error.code, 404);
      assert.equal((await call(server, 'GET', '/generation?id=gen-nope', { token: key(0).token })).status, 404);
      assert.equal((await call(server, 'GET', '/generation', { token: key(0).token })).status, 400);
      assert.equal((await call(server, 'GET', '/generation?id=', { token: key(0).token })).status, 400);
      assert.equal(
        (await call(server, 'GET', `/generation?id=${g.id}`, { token: server.managementToken })).status,
        403,
      );
      assert.equal((await call(server, 'GET', `/generation?id=${g.id}`, { token: null })).status, 401);
    });

    it('GET /metrics answers Prometheus text with the ledger queue depth', async () => {
      meter.settle({ accounts: [key(0).hash], amountUsd: 0 }, generation({ keyHash: key(0).hash }));
      const res = await fetch(`${server.api}/metrics`, {
        headers: { authorization: `Bearer ${server.managementToken}` },
      });
      assert.equal(res.status, 200);
      assert.match(res.headers.get('content-type') ?? '', /^text\/plain/);
      const text = await res.text();
      assert.match(text, /^switchyard_ledger_queue_depth [1-9]\d*$/m);
      await meter.flush();
    });
  });
}
