import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { GOOGLE_TEST } from '../fake-clouds/index.js';
import { fakeVector } from '../fake-clouds/script.js';
import { call, dialects } from '../support/server.js';
import { GOOGLE_PRICES, startGoogleGateway, type GoogleHarness } from './google-support.js';

type Json = Record<string, unknown>;

const near = (a: number, b: number) => Math.abs(a - b) < 1e-12;

for (const dialect of dialects()) {
  describe(`Claude, Gemini and embeddings on Vertex AI through Switchyard (${dialect})`, () => {
    let gw: GoogleHarness;
    let openai: OpenAI;

    before(async () => {
      gw = await startGoogleGateway(dialect);
      openai = new OpenAI({ apiKey: gw.apiKey, baseURL: gw.server.api, maxRetries: 0 });
    });
    after(() => gw.close());
    beforeEach(() => gw.reset());

    const anthropic = () => new Anthropic({ apiKey: gw.apiKey, baseURL: `${gw.server.url}/api`, maxRetries: 0 });
    const claudePath = (method: string) =>
      `/v1/projects/${GOOGLE_TEST.project}/locations/us-east5/publishers/anthropic/models/claude-sonnet-4-5@20250929:${method}`;

    it('/messages natively over rawPredict: no model in the body, vertex-2023-10-16, cache_control kept', async () => {
      const message = await anthropic().messages.create({
        model: 'claude-sonnet-4-5-20250929',
        max_tokens: 100,
        system: [{ type: 'text', text: 'Be brief.', cache_control: { type: 'ephemeral' } }],
        messages: [{ role: 'user', content: 'hi' }],
      });
      assert.equal(message.content[0]?.type === 'text' ? message.content[0].text : '', 'Hello from the fake cloud.');
      const upstream = gw.vertex.requests.at(-1);
      assert.equal(upstream?.path, claudePath('rawPredict'));
      assert.equal(upstream?.body?.anthropic_version, 'vertex-2023-10-16');
      assert.equal(upstream?.body?.model, undefined);
      assert.deepEqual((upstream?.body?.system as Json[])[0]?.cache_control, { type: 'ephemeral' });
    });

    it('/messages streamed over streamRawPredict, with thinking and its signature', async () => {
      gw.vertex.queue({ thinking: { text: 'Hmm.', signature: 'sig-claude' } });
      const stream = anthropic().messages.stream({
        model: 'claude-sonnet-4-5-20250929',
        max_tokens: 2000,
        thinking: { type: 'enabled', budget_tokens: 1024 },
        messages: [{ role: 'user', content: 'hi' }],
      });
      const final = await stream.finalMessage();
      const thinking = final.content.find((b) => b.type === 'thinking');
      assert.equal(thinking?.type === 'thinking' ? thinking.signature : '', 'sig-claude');
      assert.equal(gw.vertex.requests.at(-1)?.path, claudePath('streamRawPredict'));
    });

    it('chat completions to Claude on Vertex are translated to a Messages body', async () => {
      const res = await openai.chat.completions.create({
        model: 'anthropic/claude-sonnet-4.5',
        messages: [{ role: 'user', content: 'hi' }],
      });
      assert.equal(res.choices[0]?.message.content, 'Hello from the fake cloud.');
      const upstream = gw.vertex.requests.at(-1);
      assert.equal(upstream?.path, claudePath('rawPredict'));
      assert.equal(typeof upstream?.body?.max_tokens, 'number');
      const stream = await openai.chat.completions.create({
        model: 'anthropic/claude-sonnet-4.5',
        stream: true,
        messages: [{ role: 'user', content: 'hi' }],
      });
      let text = '';
      for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
      assert.equal(text, 'Hello from the fake cloud.');
    });

    it('/messages to a Gemini model is translated to generateContent', async () => {
      const message = await anthropic().messages.create({
        model: 'google/gemini-flash',
        max_tokens: 100,
        messages: [{ role: 'user', content: 'hi' }],
      });
      assert.equal(message.content[0]?.type === 'text' ? message.content[0].text : '', 'Hello from the fake cloud.');
      assert.match(String(gw.gemini.requests.at(-1)?.path), /gemini-2\.5-flash:generateContent$/);
    });

    // Embeddings through :predict (the fake refuses any field Vertex AI does not define).
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

    // Last: the revoked token stays held until it expires, so Vertex refuses every later call.
    it('a token Vertex AI refuses (UNAUTHENTICATED) is a 502 naming the credential problem, never the token', async () => {
      gw.oauth.ledger.revokeAll();
      const res = await call<{ error: { message: string; metadata?: Json } }>(gw.server, 'POST', '/chat/completions', {
        token: gw.apiKey,
        body: { model: 'anthropic/claude-sonnet-4.5', messages: [{ role: 'user', content: 'hi' }] },
      });
      assert.equal(res.status, 502);
      assert.match(res.body.error.message, /credentials/);
      assert.match(res.body.error.message, /invalid authentication credentials/);
      assert.ok(!JSON.stringify(res.body).includes('ya29.'), 'no token in the answer');
    });
  });
}
