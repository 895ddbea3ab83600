// Native Responses pass-through: a /responses call to a provider that declares
// `native_responses: true` goes to its /v1/responses as the client wrote it (hosted tools,
// reasoning items and every declared field kept, nothing undeclared forwarded), governed like
// any call (screened and redacted, metered from its usage), with the gateway's stored responses.
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { FAKE_TEXT, FAKE_USAGE } from '../fake-upstream/index.js';
import { FAKE_REASONING } from '../fake-upstream/responses-wire.js';
import { startGateway, testCatalog, type GatewayHarness } from '../support/gateway.js';
import { call, dialects } from '../support/server.js';

type Json = Record<string, unknown>;
interface Item extends Json {
  id: string;
  type: string;
}
interface Response extends Json {
  id: string;
  model: string;
  store: boolean;
  status: string;
  output: Item[];
  usage: Json | null;
}

const EMAIL = 'jane.doe@example.com';
const WEB_SEARCH = { type: 'web_search' };

/** The test catalog with the primary OpenAI provider declaring that it serves the Responses API. */
function nativeCatalog(fakeUrl: string): Record<string, unknown> {
  const base = testCatalog(fakeUrl) as { providers: Json[]; models: unknown[] };
  return {
    ...base,
    providers: base.providers.map((p) => (p.id === 'fake-openai' ? { ...p, native_responses: true } : p)),
  };
}

for (const dialect of dialects()) {
  describe(`native Responses pass-through (${dialect})`, () => {
    let gw: GatewayHarness;
    let filteredKey = '';
    const post = async (body: Json, token = gw.apiKey) => {
      const res = await fetch(`${gw.server.api}/responses`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'openai/gpt-test', ...body }),
      });
      const text = await res.text();
      if (body.stream !== true) return { status: res.status, body: JSON.parse(text) as Response, events: [], text };
      const events = text
        .split('\n')
        .filter((l) => l.startsWith('data: '))
        .map((l) => JSON.parse(l.slice(6)) as Json & { type: string; response?: Response });
      const done = events.find((e) => e.type === 'response.completed');
      return { status: res.status, body: done?.response as Response, events, text };
    };
    const sent = () => gw.fake.requests.at(-1);
    const sentBody = () => sent()?.body ?? {};

    before(async () => {
      gw = await startGateway({ dialect, catalog: nativeCatalog });
      const token = gw.server.managementToken;
      const created = await call<{ key: string; data: { hash: string } }>(gw.server, 'POST', '/keys', {
        token,
        body: { name: 'filtered' },
      });
      filteredKey = created.body.key;
      const g = await call<{ data: { id: string } }>(gw.server, 'POST', '/guardrails', {
        token,
        body: { name: 'redact-mail', content_filter_builtins: [{ slug: 'email', action: 'redact' }] },
      });
      await call(gw.server, 'POST', `/guardrails/${g.body.data.id}/assignments/keys`, {
        token,
        body: { key_hashes: [created.body.data.hash] },
      });
    });
    after(() => gw.close());
    beforeEach(() => gw.fake.reset());

    for (const stream of [false, true]) {
      it(`goes to /responses as written: hosted tools and declared fields kept, the rest dropped (stream ${stream})`, async () => {
        const res = await post({
          instructions: 'Be brief.',
          input: [{ role: 'user', content: [{ type: 'input_text', text: 'hi' }] }],
          tools: [WEB_SEARCH, { type: 'function', name: 'weather', parameters: { type: 'object', properties: {} } }],
          reasoning: { effort: 'low', summary: 'auto' },
          truncation: 'auto',
          client_metadata: { 'x-codex-turn': '1' },
          models: ['openai/gpt-test'],
          stream,
        });
        assert.equal(res.status, 200, res.text);
        assert.equal(sent()?.path, '/v1/responses');
        const body = sentBody();
        assert.equal(body.model, 'gpt-test');
        assert.deepEqual((body.tools as Json[])[0], WEB_SEARCH, 'a hosted tool reaches an upstream that serves it');
        assert.deepEqual(body.reasoning, { effort: 'low', summary: 'auto' });
        assert.equal(body.truncation, 'auto');
        assert.equal(body.stream, stream);
        for (const field of ['client_metadata', 'models', 'provider'])
          assert.equal(body[field], undefined, `${field} is not forwarded`);
        assert.equal(body.store, false, 'the gateway keeps responses; the upstream keeps nothing');
        assert.deepEqual(body.include, ['reasoning.encrypted_content']);

        const response = res.body;
        assert.match(response.id, /^gen-/, 'the generation id');
        assert.equal(response.model, 'openai/gpt-test', 'the catalog slug');
        assert.equal(response.store, true);
        assert.deepEqual(response.tools, body.tools, "the upstream's own object otherwise");
        const reasoning = response.output.find((i) => i.type === 'reasoning');
        assert.equal(reasoning?.encrypted_content, FAKE_REASONING, 'reasoning items come back whole');
        const message = response.output.find((i) => i.type === 'message');
        assert.equal(((message?.content as Json[])[0] as Json).text, FAKE_TEXT);
        if (stream) {
          const numbers = res.events.map((e) => e.sequence_number);
          assert.deepEqual(
            numbers,
            numbers.map((_, i) => i),
            "the upstream's numbered events, each once",
          );
          for (const e of res.events)
            if (e.response !== undefined) assert.equal(e.response.id, response.id, `${e.type} relabelled`);
        }
        const gen = await call<{ data: Json }>(gw.server, 'GET', `/generation?id=${response.id}`, { token: gw.apiKey });
        assert.equal(gen.status, 200);
        assert.equal(gen.body.data.provider_name, 'fake-openai');
        assert.equal(gen.body.data.tokens_prompt, FAKE_USAGE.prompt_tokens, 'metered from its usage');
        assert.equal(gen.body.data.tokens_completion, FAKE_USAGE.completion_tokens);
      });
    }

    it('stored responses: a chained call sends the stored items (reasoning included), never previous_response_id', async () => {
      const first = await post({ input: 'first question' });
      assert.equal(first.status, 200, first.text);
      const got = await fetch(`${gw.server.api}/responses/${first.body.id}`, {
        headers: { authorization: `Bearer ${gw.apiKey}` },
      });
      assert.equal(got.status, 200);
      const chained = await post({ previous_response_id: first.body.id, input: 'second question', stream: true });
      assert.equal(chained.status, 200, chained.text);
      const body = sentBody();
      assert.equal(body.previous_response_id, undefined);
      const input = body.input as Json[];
      assert.deepEqual(input[0], { role: 'user', content: 'first question' });
      assert.equal(input.find((i) => i.type === 'reasoning')?.encrypted_content, FAKE_REASONING);
      assert.deepEqual(input.at(-1), { role: 'user', content: 'second question' });
    });

    it('store: false as the client asked: nothing kept, its include left as sent', async () => {
      const res = await post({ input: 'forget me', store: false });
      assert.equal(res.body.store, false);
      assert.equal(sentBody().include, undefined);
    });

    for (const stream of [false, true]) {
      it(`a guardrail redacts the Responses body in place (stream ${stream})`, async () => {
        const res = await post(
          {
            instructions: `Escalate to ${EMAIL}.`,
            input: [
              { role: 'user', content: [{ type: 'input_text', text: `Mail ${EMAIL} please` }] },
              { type: 'function_call', call_id: 'c1', name: 'send', arguments: `{"to":"${EMAIL}"}` },
              { type: 'function_call_output', call_id: 'c1', output: `sent to ${EMAIL}` },
            ],
            tools: [WEB_SEARCH],
            stream,
          },
          filteredKey,
        );
        assert.equal(res.status, 200, res.text);
        const text = JSON.stringify(sentBody());
        assert.ok(!text.includes(EMAIL), text);
        assert.equal(sent()?.path, '/v1/responses', 'still native, hosted tool kept');
        assert.deepEqual((sentBody().tools as Json[])[0], WEB_SEARCH);
      });
    }

    it('falls back to a candidate without the Responses API: translated to a chat, answered as Responses', async () => {
      gw.fake.queue('fail-503');
      const res = await post({ input: 'hi', tools: [WEB_SEARCH] });
      assert.equal(res.status, 200, res.text);
      assert.deepEqual(
        gw.fake.requests.map((r) => r.path),
        ['/v1/responses', '/v1/chat/completions'],
      );
      assert.equal(res.body.object, 'response');
      assert.equal((res.body.output.find((i) => i.type === 'message')?.content as Json[])[0]?.text, FAKE_TEXT);
    });
  });
}
