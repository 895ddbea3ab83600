import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { call, dialects } from '../support/server.js';
import { startGateway, type GatewayHarness } from '../support/gateway.js';

type Err = { error?: { code: number; message: string } };
type Saved = Err & {
  data: { id: string; designated_version: { config: Record<string, unknown>; system_prompt: string } };
};
type Upstream = Record<string, unknown> & { model: string };

/** Presets on the Anthropic Messages surface: saving a version from a Messages body, and `@preset/slug` calls. */
for (const dialect of dialects()) {
  describe(`presets on POST /messages (${dialect})`, () => {
    let gw: GatewayHarness;
    const mgmt = () => gw.server.managementToken;
    const saveChat = (slug: string, body: Record<string, unknown>) =>
      call<Saved>(gw.server, 'POST', `/presets/${slug}/chat/completions`, { token: mgmt(), body });
    const messages = (body: Record<string, unknown>) =>
      call<Err & { id: string; model: string }>(gw.server, 'POST', '/messages', {
        headers: { 'x-api-key': gw.apiKey, 'anthropic-version': '2023-06-01' },
        token: null,
        body: { max_tokens: 100, messages: [{ role: 'user', content: 'hello' }], ...body },
      });
    const sent = (): Upstream => {
      assert.equal(gw.fake.requests.length, 1, 'exactly one upstream request');
      return gw.fake.requests[0]?.body as Upstream;
    };

    before(async () => {
      gw = await startGateway({ dialect });
      const tools = [
        {
          type: 'function',
          function: { name: 'lookup', description: 'from the preset', parameters: { type: 'object' } },
        },
      ];
      const system = { role: 'system', content: 'You are terse.' };
      const claude = await saveChat('claude-writer', {
        model: 'anthropic/claude-test',
        temperature: 0.3,
        top_p: 0.9,
        stop: ['END'],
        tools,
        seed: 7,
        messages: [system],
      });
      assert.equal(claude.status, 200, JSON.stringify(claude.body));
      const gpt = await saveChat('gpt-writer', { model: 'openai/gpt-test', temperature: 0.3, messages: [system] });
      assert.equal(gpt.status, 200, JSON.stringify(gpt.body));
    });
    after(() => gw.close());
    beforeEach(() => gw.fake.reset());

    it('"@preset/slug" to an Anthropic upstream: the preset in Messages form, its system prompt first', async () => {
      const res = await messages({ model: '@preset/claude-writer' });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.equal(res.body.model, 'anthropic/claude-test');
      const body = sent();
      assert.equal(body.model, 'claude-test');
      assert.deepEqual(
        [body.system, body.temperature, body.top_p, body.stop_sequences, body.max_tokens],
        ['You are terse.', 0.3, 0.9, ['END'], 100],
      );
      assert.deepEqual(body.tools, [
        { name: 'lookup', description: 'from the preset', input_schema: { type: 'object' } },
      ]);
      assert.ok(!('seed' in body), 'a chat-only field has no Messages form');
      assert.ok(!('preset' in body));
    });

    it("the request's own fields, tools of the same name and system prompt win or follow", async () => {
      const own = { name: 'lookup', description: 'from the request', input_schema: { type: 'object', properties: {} } };
      const res = await messages({
        model: '@preset/claude-writer',
        temperature: 1,
        system: 'Answer in French.',
        tools: [own, { name: 'other', input_schema: { type: 'object' } }],
      });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      const body = sent();
      assert.equal(body.temperature, 1);
      assert.deepEqual(body.system, [
        { type: 'text', text: 'You are terse.' },
        { type: 'text', text: 'Answer in French.' },
      ]);
      assert.deepEqual(
        (body.tools as { description?: string; name: string }[]).map((t) => [t.name, t.description]),
        [
          ['lookup', 'from the request'],
          ['other', undefined],
        ],
      );
    });

    it('"@preset/slug" to an OpenAI-compatible upstream: translated, with the system prompt first', async () => {
      const res = await messages({ model: '@preset/gpt-writer' });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      const body = sent() as Upstream & { messages: { role: string; content: unknown }[] };
      assert.equal(body.model, 'gpt-test');
      assert.equal(body.temperature, 0.3);
      assert.deepEqual(body.messages[0], { role: 'system', content: 'You are terse.' });
    });

    it('POST /presets/{slug}/messages saves the Messages body as a chat preset every surface can use', async () => {
      const saved = await call<Saved>(gw.server, 'POST', '/presets/from-messages/messages', {
        token: mgmt(),
        body: {
          model: 'anthropic/claude-test',
          system: [{ type: 'text', text: 'Be brief.' }],
          stop_sequences: ['STOP'],
          temperature: 0.5,
          tools: [{ name: 'lookup', description: 'd', input_schema: { type: 'object' } }],
          models: ['openai/gpt-test'],
        },
      });
      assert.equal(saved.status, 200, JSON.stringify(saved.body));
      const version = saved.body.data.designated_version;
      assert.equal(version.system_prompt, 'Be brief.');
      assert.deepEqual(version.config, {
        model: 'anthropic/claude-test',
        models: ['openai/gpt-test'],
        temperature: 0.5,
        stop: ['STOP'],
        tools: [{ type: 'function', function: { name: 'lookup', description: 'd', parameters: { type: 'object' } } }],
      });
      const chat = await call<Err>(gw.server, 'POST', '/chat/completions', {
        token: gw.apiKey,
        body: { model: '@preset/from-messages', messages: [{ role: 'user', content: 'hi' }] },
      });
      assert.equal(chat.status, 200, JSON.stringify(chat.body));
      assert.equal(sent().system, 'Be brief.', 'the chat call reached the Anthropic upstream with the system prompt');
    });

    it('refusals: a bad Messages body for a preset is a 400, legacy completions take no preset', async () => {
      const bad = await call<Err>(gw.server, 'POST', '/presets/broken/messages', {
        token: mgmt(),
        body: { model: 'anthropic/claude-test', temperature: 3 },
      });
      assert.equal(bad.status, 400);
      const legacy = await call<Err>(gw.server, 'POST', '/completions', {
        token: gw.apiKey,
        body: { model: '@preset/claude-writer', prompt: 'x' },
      });
      assert.equal(legacy.status, 400);
      assert.match(legacy.body.error?.message ?? '', /not to completion calls/);
      assert.equal(gw.fake.requests.length, 0);
    });
  });
}
