import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import OpenAI from 'openai';
import { GOOGLE_TEST } from '../fake-clouds/index.js';
import { fakeVector } from '../fake-clouds/script.js';
import { call, dialects } from '../support/server.js';
import { GOOGLE_PRICES, startGoogleGateway, type GoogleHarness } from './google-support.js';

// The openai SDK's embeddings through Switchyard to Vertex AI's :predict (the fake refuses any
// field Vertex does not define, and any token its OAuth endpoint did not issue).

type Json = Record<string, unknown>;

const near = (a: number, b: number) => Math.abs(a - b) < 1e-12;

for (const dialect of dialects()) {
  describe(`Embeddings on Vertex AI through Switchyard (${dialect})`, () => {
    let gw: GoogleHarness;
    let openai: OpenAI;

    before(async () => {
      gw = await startGoogleGateway(dialect);
      openai = new OpenAI({ apiKey: gw.apiKey, baseURL: gw.server.api, maxRetries: 0 });
    });
    after(() => gw.close());
    beforeEach(() => gw.reset());

    const predictPath = (model: string) =>
      `/v1/projects/${GOOGLE_TEST.project}/locations/us-east5/publishers/google/models/${model}:predict`;

    it('text-embedding-005: one :predict, dimensions as outputDimensionality, usage from token_count recorded', async () => {
      const res = await openai.embeddings.create({
        model: 'google/text-embedding-005',
        input: ['first text', 'second'],
        dimensions: 16,
        encoding_format: 'float',
      });
      assert.deepEqual(
        res.data.map((d) => [d.index, d.embedding]),
        [
          [0, fakeVector('first text', 16)],
          [1, fakeVector('second', 16)],
        ],
      );
      assert.equal(gw.vertex.requests.length, 1);
      const upstream = gw.vertex.requests[0];
      assert.equal(upstream?.path, predictPath('text-embedding-005'));
      assert.match(String(upstream?.headers.authorization), /^Bearer ya29\./);
      assert.deepEqual(upstream?.body, {
        instances: [{ content: 'first text' }, { content: 'second' }],
        parameters: { outputDimensionality: 16 },
      });
      // Vertex's counts (3 + 2), not an estimate.
      assert.equal(res.usage.prompt_tokens, 5);
      const cost = (res.usage as unknown as { cost: number }).cost;
      assert.ok(near(cost, 5 * GOOGLE_PRICES.vertexEmbed.prompt), String(cost));
      const id = (res as unknown as { id: string }).id;
      const gen = await call<{ data: Json }>(gw.server, 'GET', `/generation?id=${id}`, { token: gw.apiKey });
      assert.equal(gen.status, 200, JSON.stringify(gen.body));
      assert.equal(gen.body.data.api_type, 'embeddings');
      assert.equal(gen.body.data.tokens_prompt, 5);
      assert.equal(gen.body.data.provider_name, 'vertex');
      assert.ok(near(Number(gen.body.data.total_cost), 5 * GOOGLE_PRICES.vertexEmbed.prompt));
    });

    it('gemini-embedding-001: one text per :predict, vectors in order; the base64 default decodes', async () => {
      const res = await openai.embeddings.create({
        model: 'google/gemini-embedding-001',
        input: ['alpha', 'beta', 'gamma'],
        dimensions: 8,
      });
      assert.equal(res.data.length, 3);
      assert.deepEqual(
        res.data.map((d) => d.embedding.map((v) => Math.round(v * 1e4) / 1e4)),
        ['alpha', 'beta', 'gamma'].map((t) => fakeVector(t, 8).map((v) => Math.round(v * 1e4) / 1e4)),
      );
      const sent = gw.vertex.requests.map((r) => (r.body?.instances as Json[]).map((i) => i.content));
      assert.deepEqual(sent.sort(), [['alpha'], ['beta'], ['gamma']], 'three calls of one instance each');
      assert.ok(gw.vertex.requests.every((r) => r.path === predictPath('gemini-embedding-001')));
      assert.equal(res.usage.prompt_tokens, 5, 'token_count 2 + 1 + 2');
    });

    it("a client's task_type reaches each instance; Vertex's INVALID_ARGUMENT is a 400 with its message", async () => {
      await openai.embeddings.create({
        model: 'google/text-embedding-005',
        input: 'query text',
        task_type: 'RETRIEVAL_QUERY',
      } as OpenAI.EmbeddingCreateParams);
      assert.deepEqual(gw.vertex.requests.at(-1)?.body, {
        instances: [{ content: 'query text', task_type: 'RETRIEVAL_QUERY' }],
      });
      const bad = await call<{ error: { message: string } }>(gw.server, 'POST', '/embeddings', {
        token: gw.apiKey,
        body: { model: 'google/text-embedding-005', input: 'x', task_type: 'NOT_A_TASK' },
      });
      assert.equal(bad.status, 400);
      assert.match(bad.body.error.message, /Unsupported task type: NOT_A_TASK/);
      const tokens = await call(gw.server, 'POST', '/embeddings', {
        token: gw.apiKey,
        body: { model: 'google/text-embedding-005', input: [1, 2, 3] },
      });
      assert.equal(tokens.status, 400);
    });

    it('throttling (RESOURCE_EXHAUSTED) on the only endpoint is a 429 to the client', async () => {
      gw.vertex.queue({ fail: 'throttle' });
      const res = await call<{ error: { message: string } }>(gw.server, 'POST', '/embeddings', {
        token: gw.apiKey,
        body: { model: 'google/text-embedding-005', input: 'x' },
      });
      assert.equal(res.status, 429, JSON.stringify(res.body));
      assert.equal(gw.vertex.requests.length, 1, 'Vertex was called');
    });
  });
}
