import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { AWS_TEST, GOOGLE_TEST, type CloudRequest } from '../fake-clouds/index.js';
import { FAKE_TEXT, FAKE_USAGE } from '../fake-upstream/index.js';
import { call, dialects } from '../support/server.js';
import { CLAUDE_ID } from './bedrock-harness.js';
import {
  ANTHROPIC,
  BEDROCK,
  CROSS_PRICES,
  SLUG,
  VERTEX,
  redactingKey,
  startCrossCloudGateway,
  type CloudId,
  type CrossCloudGateway,
} from './cross-cloud-harness.js';

// Governance across clouds: one Claude model served by Anthropic's API, Bedrock and Vertex AI.
// Routing takes the cheapest healthy endpoint, a cloud's throttling moves the call to the next,
// the generation records who served at whose price, and a guardrail holds on every cloud.

type Json = Record<string, unknown>;
type Provider = CloudId;

const CLOUD_TEXT = 'Hello from the fake cloud.';
const EMAIL = 'jane.doe@example.com';
/** What each fake reports as usage: the clouds' default script, and the fake Anthropic API. */
const USAGE: Record<Provider, { prompt: number; completion: number }> = {
  [BEDROCK]: { prompt: 12, completion: 5 },
  [VERTEX]: { prompt: 12, completion: 5 },
  [ANTHROPIC]: { prompt: FAKE_USAGE.prompt_tokens, completion: FAKE_USAGE.completion_tokens },
};
const TEXT: Record<Provider, string> = { [BEDROCK]: CLOUD_TEXT, [VERTEX]: CLOUD_TEXT, [ANTHROPIC]: FAKE_TEXT };
const vertexPath = (method: string) =>
  `/v1/projects/${GOOGLE_TEST.project}/locations/us-east5/publishers/anthropic/models/claude-sonnet-4-5@20250929:${method}`;

for (const dialect of dialects()) {
  describe(`one Claude model on Anthropic, Bedrock and Vertex AI (${dialect})`, () => {
    let gw: CrossCloudGateway;
    let openai: OpenAI;
    let anthropic: Anthropic;

    before(async () => {
      gw = await startCrossCloudGateway(dialect);
      openai = new OpenAI({ apiKey: gw.apiKey, baseURL: gw.server.api, maxRetries: 0 });
      anthropic = new Anthropic({ apiKey: gw.apiKey, baseURL: `${gw.server.url}/api`, maxRetries: 0 });
    });
    after(() => gw.close());
    beforeEach(() => gw.reset());

    /** Which fakes were called, in the order the gateway tried them. */
    const tried = (): Provider[] => [...gw.arrivals];
    const throttle = (...who: Provider[]) => {
      for (const p of who) {
        if (p === BEDROCK) gw.bedrock.queue({ fail: 'throttle' });
        else if (p === VERTEX) gw.vertex.queue({ fail: 'throttle' });
        else gw.anthropic.queue('fail-429');
      }
    };
    const chat = (content = 'Hi', key = gw.apiKey, extra: Json = {}) =>
      call<{ id: string; choices: { message: { content: string } }[] }>(gw.server, 'POST', '/chat/completions', {
        token: key,
        body: { model: SLUG, max_tokens: 100, messages: [{ role: 'user', content }], ...extra },
      });
    /** The generation names the provider that served and prices its usage at that endpoint's price. */
    const assertServedBy = async (id: string, who: Provider) => {
      const gen = await call<{ data: Json }>(gw.server, 'GET', `/generation?id=${id}`, { token: gw.apiKey });
      assert.equal(gen.status, 200);
      assert.equal(gen.body.data.provider_name, who);
      assert.equal(gen.body.data.tokens_prompt, USAGE[who].prompt);
      assert.equal(gen.body.data.tokens_completion, USAGE[who].completion);
      const price = CROSS_PRICES[who];
      const expected = price.prompt * USAGE[who].prompt + price.completion * USAGE[who].completion;
      assert.ok(
        Math.abs((gen.body.data.total_cost as number) - expected) < 1e-12,
        `cost ${String(gen.body.data.total_cost)} ≠ ${expected}`,
      );
    };
    const bedrockSigned = (r: CloudRequest | undefined) => {
      assert.match(
        String(r?.headers.authorization),
        new RegExp(`^AWS4-HMAC-SHA256 Credential=${AWS_TEST.accessKeyId}/\\d{8}/us-east-1/bedrock/aws4_request`),
      );
      assert.notEqual(r?.script, null, 'the fake verified the signature and answered');
    };
    const sentTo = (who: Provider): Json | null | undefined =>
      who === BEDROCK
        ? gw.bedrock.requests.at(-1)?.body
        : who === VERTEX
          ? gw.vertex.requests.at(-1)?.body
          : gw.anthropic.requests.at(-1)?.body;

    it('the cheapest healthy endpoint serves first: Bedrock, SigV4-signed, recorded at its price', async () => {
      const res = await openai.chat.completions.create({ model: SLUG, messages: [{ role: 'user', content: 'Hi' }] });
      assert.equal(res.choices[0]?.message.content, CLOUD_TEXT);
      assert.deepEqual(tried(), [BEDROCK]);
      assert.equal(gw.bedrock.requests[0]?.path, `/model/${CLAUDE_ID}/converse`);
      bedrockSigned(gw.bedrock.requests[0]);
      await assertServedBy(res.id, BEDROCK);
    });

    it('Bedrock ThrottlingException: Vertex AI serves Claude over rawPredict with a Google token', async () => {
      throttle(BEDROCK);
      const res = await openai.chat.completions.create({ model: SLUG, messages: [{ role: 'user', content: 'Hi' }] });
      assert.equal(res.choices[0]?.message.content, CLOUD_TEXT);
      assert.deepEqual(tried(), [BEDROCK, VERTEX]);
      assert.equal(gw.bedrock.requests[0]?.script?.fail, 'throttle');
      const upstream = gw.vertex.requests[0];
      assert.equal(upstream?.path, vertexPath('rawPredict'));
      assert.match(String(upstream?.headers.authorization), /^Bearer ya29\.fake-/);
      assert.ok(gw.oauth.ledger.grants >= 1, 'the token came from the fake OAuth endpoint');
      await assertServedBy(res.id, VERTEX);
    });

    it('Bedrock throttled and Vertex RESOURCE_EXHAUSTED: Anthropic serves, the client gets 200', async () => {
      throttle(BEDROCK, VERTEX);
      const res = await chat();
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.equal(res.body.choices[0]?.message.content, FAKE_TEXT);
      assert.deepEqual(tried(), [BEDROCK, VERTEX, ANTHROPIC]);
      assert.equal(gw.anthropic.requests[0]?.path, '/v1/messages');
      await assertServedBy(res.body.id, ANTHROPIC);
    });

    it('Anthropic 429 (when a request puts it first): the next cheapest serves', async () => {
      throttle(ANTHROPIC);
      const res = await chat('Hi', gw.apiKey, { provider: { order: [ANTHROPIC] } });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.deepEqual(tried(), [ANTHROPIC, BEDROCK]);
      await assertServedBy(res.body.id, BEDROCK);
    });

    it('a streamed chat falls back across clouds before the first byte', async () => {
      throttle(BEDROCK);
      const stream = await openai.chat.completions.create({
        model: SLUG,
        stream: true,
        messages: [{ role: 'user', content: 'Hi' }],
      });
      let text = '';
      for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
      assert.equal(text, CLOUD_TEXT);
      assert.deepEqual(tried(), [BEDROCK, VERTEX]);
      assert.equal(gw.vertex.requests[0]?.path, vertexPath('streamRawPredict'));
    });

    it('a redacting guardrail holds on whichever cloud serves: the fake that answered got the redaction', async () => {
      const key = await redactingKey(gw.server);
      const cases: { throttled: Provider[]; served: Provider }[] = [
        { throttled: [], served: BEDROCK },
        { throttled: [BEDROCK], served: VERTEX },
        { throttled: [BEDROCK, VERTEX], served: ANTHROPIC },
      ];
      for (const c of cases) {
        gw.reset();
        throttle(...c.throttled);
        const res = await chat(`Write to ${EMAIL} please`, key);
        assert.equal(res.status, 200, JSON.stringify(res.body));
        assert.equal(res.body.choices[0]?.message.content, TEXT[c.served]);
        assert.deepEqual(tried(), [...c.throttled, c.served]);
        for (const who of tried()) {
          const sent = JSON.stringify(sentTo(who));
          assert.ok(!sent.includes(EMAIL), `${who} received the address`);
          assert.match(sent, /Write to \[EMAIL\] please/, `${who} received the redaction`);
        }
      }
    });

    it('/messages natively on each cloud: InvokeModel, then rawPredict, then Anthropic, recorded per provider', async () => {
      const ask = () =>
        anthropic.messages.create({
          model: SLUG,
          max_tokens: 100,
          system: [{ type: 'text', text: 'Be brief.', cache_control: { type: 'ephemeral' } }],
          messages: [{ role: 'user', content: 'Hi' }],
        });
      const first = await ask();
      assert.deepEqual(tried(), [BEDROCK]);
      assert.equal(gw.bedrock.requests[0]?.path, `/model/${CLAUDE_ID}/invoke`);
      assert.equal(gw.bedrock.requests[0]?.body?.anthropic_version, 'bedrock-2023-05-31');
      bedrockSigned(gw.bedrock.requests[0]);
      assert.equal(first.content[0]?.type === 'text' ? first.content[0].text : null, CLOUD_TEXT);
      await assertServedBy(first.id, BEDROCK);

      gw.reset();
      throttle(BEDROCK);
      const second = await ask();
      assert.deepEqual(tried(), [BEDROCK, VERTEX]);
      const vertexCall = gw.vertex.requests[0];
      assert.equal(vertexCall?.path, vertexPath('rawPredict'));
      assert.equal(vertexCall?.body?.anthropic_version, 'vertex-2023-10-16');
      assert.deepEqual((vertexCall?.body?.system as Json[])[0]?.cache_control, { type: 'ephemeral' });
      await assertServedBy(second.id, VERTEX);

      gw.reset();
      throttle(BEDROCK, VERTEX);
      const stream = anthropic.messages.stream({
        model: SLUG,
        max_tokens: 100,
        messages: [{ role: 'user', content: 'Hi' }],
      });
      const third = await stream.finalMessage();
      assert.deepEqual(tried(), [BEDROCK, VERTEX, ANTHROPIC]);
      assert.equal(gw.anthropic.requests[0]?.path, '/v1/messages');
      assert.equal(gw.anthropic.requests[0]?.body?.model, 'claude-sonnet-4-5-20250929');
      assert.equal(third.content[0]?.type === 'text' ? third.content[0].text : null, FAKE_TEXT);
    });

    it('/messages natively: the redaction reaches the cloud that serves', async () => {
      const key = await redactingKey(gw.server);
      const client = new Anthropic({ apiKey: key, baseURL: `${gw.server.url}/api`, maxRetries: 0 });
      throttle(BEDROCK);
      await client.messages.create({
        model: SLUG,
        max_tokens: 100,
        messages: [{ role: 'user', content: `Write to ${EMAIL} please` }],
      });
      assert.deepEqual(tried(), [BEDROCK, VERTEX]);
      for (const who of [BEDROCK, VERTEX] as const) {
        const sent = JSON.stringify(sentTo(who));
        assert.ok(!sent.includes(EMAIL), `${who} received the address`);
        assert.match(sent, /\[EMAIL\]/);
      }
    });

    // Last: it leaves Bedrock's circuit breaker open for the rest of the process.
    it('an endpoint that keeps throttling goes behind the healthy ones: Vertex is asked first', async () => {
      for (let i = 0; i < 3; i++) {
        gw.reset();
        throttle(BEDROCK);
        assert.equal((await chat()).status, 200);
      }
      gw.reset();
      const res = await chat();
      assert.equal(res.status, 200);
      assert.deepEqual(tried(), [VERTEX], 'the throttled cheapest endpoint is not asked first');
      await assertServedBy(res.body.id, VERTEX);
    });
  });
}
