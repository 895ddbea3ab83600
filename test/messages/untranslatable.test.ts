// A Messages body with blocks only Anthropic reads (a document, a non-text system block): the
// candidates that would need it translated are dropped from the plan before the call is
// accepted; with none left the call is refused: nothing reserved or sent, recorded as a refusal.
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { dialects } from '../support/server.js';
import { startGateway, type GatewayHarness } from '../support/gateway.js';

const DOCUMENT = {
  role: 'user',
  content: [
    { type: 'document', source: { type: 'text', media_type: 'text/plain', data: 'A short memo.' } },
    { type: 'text', text: 'Summarise the memo.' },
  ],
};

for (const dialect of dialects()) {
  describe(`POST /messages with blocks only Anthropic reads (${dialect})`, () => {
    let gw: GatewayHarness;
    const send = async (body: Record<string, unknown>) => {
      const res = await fetch(`${gw.server.api}/messages`, {
        method: 'POST',
        headers: { 'x-api-key': gw.apiKey, 'content-type': 'application/json' },
        body: JSON.stringify({ max_tokens: 32, ...body }),
      });
      return { status: res.status, type: res.headers.get('content-type') ?? '', text: await res.text() };
    };
    const queued = () => gw.server.running.services.meter.queueDepth();

    before(async () => {
      gw = await startGateway({ dialect, env: { SWITCHYARD_LEDGER_FLUSH_MS: '60000' } });
    });
    after(() => gw.close());
    beforeEach(() => gw.fake.reset());

    for (const stream of [false, true]) {
      it(`to an upstream that needs a translation: a 400 naming the block, nothing recorded (stream ${stream})`, async () => {
        const before = queued();
        for (const body of [
          { model: 'openai/gpt-test', messages: [DOCUMENT] },
          {
            model: 'openai/gpt-test',
            system: [{ type: 'image', source: { type: 'url', url: 'https://example.com/a.png' } }],
            messages: [{ role: 'user', content: 'Hi' }],
          },
        ]) {
          const res = await send({ ...body, stream });
          assert.equal(res.status, 400, res.text);
          assert.match(res.type, /application\/json/);
          const error = JSON.parse(res.text) as { type: string; error: { type: string; message: string } };
          assert.equal(error.type, 'error');
          assert.equal(error.error.type, 'invalid_request_error');
          assert.match(error.error.message, /^(messages\[0\]\.content\[0\]|system\[0\])\.[a-z.]+: /);
        }
        assert.equal(gw.fake.requests.length, 0, 'nothing was sent upstream');
        // Each refusal is recorded (docs/metering.md, "Refused calls"); nothing else is settled.
        assert.equal(queued(), before + 2, 'two refusal records');
        const { meter, analytics } = gw.server.running.services;
        await meter.flush();
        const all = await analytics.generations({}, undefined, 200);
        assert.ok(all.rows.length > 0);
        assert.ok(
          all.rows.every((g) => g.refusal?.status === 400 && g.apiType === 'messages' && g.costUsd === 0),
          'only refusals',
        );
      });
    }

    it('a plan with an Anthropic candidate: the call goes there, the others are skipped', async () => {
      const res = await send({
        model: 'openai/gpt-test',
        models: ['openai/gpt-test', 'anthropic/claude-test'],
        messages: [DOCUMENT],
      });
      assert.equal(res.status, 200, res.text);
      assert.deepEqual(
        gw.fake.requests.map((r) => r.path),
        ['/v1/messages'],
      );
      const upstream = gw.fake.requests[0]?.body as { messages: { content: { type: string }[] }[] };
      assert.equal(upstream.messages[0]?.content[0]?.type, 'document', 'the block went through untouched');
      assert.equal((JSON.parse(res.text) as { model: string }).model, 'anthropic/claude-test');
    });

    it('a translatable body keeps the whole plan: the first candidate answers', async () => {
      const res = await send({
        model: 'openai/gpt-test',
        models: ['openai/gpt-test', 'anthropic/claude-test'],
        messages: [{ role: 'user', content: 'Hi' }],
      });
      assert.equal(res.status, 200, res.text);
      assert.deepEqual(
        gw.fake.requests.map((r) => r.path),
        ['/v1/chat/completions'],
      );
    });
  });
}
