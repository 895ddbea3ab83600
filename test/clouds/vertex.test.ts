import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { GOOGLE_TEST } from '../fake-clouds/index.js';
import { call, dialects } from '../support/server.js';
import { startGoogleGateway, type GoogleHarness } from './google-support.js';

type Json = Record<string, unknown>;

for (const dialect of dialects()) {
  describe(`Claude and Gemini on Vertex AI through Switchyard (${dialect})`, () => {
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
