// A Messages body as Claude Code's current default model sends it (system entries inside
// `messages`, adaptive thinking, output_config, context_management, server tool blocks, fields
// Switchyard does not know, its betas in `anthropic-beta`): natively it reaches Anthropic
// untouched with the betas; translated, the chat holds only what OpenAI accepts (the fake
// upstreams refuse the rest, as the real APIs do).
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { dialects } from '../support/server.js';
import { startGateway, testCatalog, type GatewayHarness } from '../support/gateway.js';

const BETAS = 'claude-code-20250219,interleaved-thinking-2025-05-14,context-management-2025-06-27';
const METADATA_USER = JSON.stringify({ device_id: 'dev-1', account_uuid: 'acc-1', session_id: 'sess-cc-1' });

export const CLAUDE_CODE_BODY = {
  max_tokens: 32000,
  system: [{ type: 'text', text: 'You are Claude Code.', cache_control: { type: 'ephemeral' } }],
  messages: [
    { role: 'user', content: [{ type: 'text', text: 'List the files.' }] },
    { role: 'system', content: 'The user prefers short answers.' },
    {
      role: 'assistant',
      content: [
        { type: 'thinking', thinking: 'Search first.', signature: 'sig-1' },
        { type: 'server_tool_use', id: 'srvtoolu_1', name: 'web_search', input: { query: 'ls' } },
        { type: 'web_search_tool_result', tool_use_id: 'srvtoolu_1', content: [] },
        { type: 'text', text: 'Looking.' },
      ],
    },
    { role: 'user', content: [{ type: 'text', text: 'Go on.', cache_control: { type: 'ephemeral' } }] },
  ],
  thinking: { type: 'adaptive' },
  output_config: { effort: 'high' },
  context_management: { edits: [{ type: 'clear_thinking_20251015', keep: 'all' }] },
  tools: [
    { name: 'Bash', description: 'Run a command', input_schema: { type: 'object', properties: {} } },
    { type: 'web_search_20250305', name: 'web_search', max_uses: 5 },
  ],
  metadata: { user_id: METADATA_USER },
  a_field_from_next_year: { on: true },
};

const HEADERS = {
  'anthropic-version': '2023-06-01',
  'anthropic-beta': BETAS,
  'user-agent': 'claude-cli/2.1.0 (external, cli)',
  'x-claude-code-session-id': 'sess-cc-1',
};

/** The catalog with an output limit on the Anthropic model (the default `max_tokens` it gets). */
function catalogWithLimit(url: string): Record<string, unknown> {
  const catalog = testCatalog(url) as { models: { slug: string; endpoints: Record<string, unknown>[] }[] };
  for (const model of catalog.models)
    if (model.slug === 'anthropic/claude-test')
      for (const endpoint of model.endpoints) endpoint.max_completion_tokens = 64000;
  return catalog;
}

for (const dialect of dialects()) {
  describe(`Claude Code's default request shape (${dialect})`, () => {
    let gw: GatewayHarness;
    const send = async (body: Record<string, unknown>, headers: Record<string, string> = HEADERS) => {
      const res = await fetch(`${gw.server.api}/messages`, {
        method: 'POST',
        headers: { 'x-api-key': gw.apiKey, 'content-type': 'application/json', ...headers },
        body: JSON.stringify(body),
      });
      return { status: res.status, text: await res.text() };
    };

    before(async () => {
      gw = await startGateway({ dialect, catalog: catalogWithLimit });
    });
    after(() => gw.close());
    beforeEach(() => gw.fake.reset());

    for (const stream of [false, true]) {
      it(`natively: every field untouched, anthropic-version and every beta forwarded (stream ${stream})`, async () => {
        const res = await send({ ...CLAUDE_CODE_BODY, model: 'anthropic/claude-test', stream });
        assert.equal(res.status, 200, res.text);
        const seen = gw.fake.requests[0];
        assert.ok(seen);
        assert.deepEqual(seen.body, { ...CLAUDE_CODE_BODY, model: 'claude-test', stream });
        assert.equal(seen.headers['anthropic-version'], '2023-06-01');
        assert.deepEqual(String(seen.headers['anthropic-beta']).split(','), BETAS.split(','));
        assert.equal(seen.headers['x-claude-code-session-id'], undefined, 'no other client header goes upstream');
        assert.equal(seen.headers['user-agent']?.startsWith('claude-cli'), false);
      });

      it(`translated to chat: system entries in place, effort mapped, nothing OpenAI refuses (stream ${stream})`, async () => {
        const res = await send({ ...CLAUDE_CODE_BODY, model: 'openai/gpt-test', stream });
        assert.equal(res.status, 200, res.text);
        const body = gw.fake.requests[0]?.body as Record<string, unknown> & {
          messages: { role: string; content: unknown }[];
        };
        assert.deepEqual(
          body.messages.map((m) => m.role),
          ['system', 'user', 'system', 'assistant', 'user'],
        );
        assert.equal(body.messages[2]?.content, 'The user prefers short answers.');
        assert.equal(body.messages[3]?.content, 'Looking.');
        assert.equal(body.reasoning_effort, 'high');
        assert.equal(body.max_tokens, 32000);
        for (const dropped of ['user', 'reasoning', 'context_management', 'output_config', 'a_field_from_next_year'])
          assert.equal(dropped in body, false, dropped);
        assert.deepEqual(
          (body.tools as { function: { name: string } }[]).map((t) => t.function.name),
          ['Bash'],
        );
      });
    }

    it('records who called: user agent, session and origin, in GET /generation and filtered /generations', async () => {
      const res = await send(
        { ...CLAUDE_CODE_BODY, model: 'anthropic/claude-test' },
        { ...HEADERS, origin: 'https://ide.example' },
      );
      assert.equal(res.status, 200, res.text);
      const id = (JSON.parse(res.text) as { id: string }).id;
      await gw.server.running.services.meter.flush();
      const auth = { authorization: `Bearer ${gw.apiKey}` };
      const one = (await (await fetch(`${gw.server.api}/generation?id=${id}`, { headers: auth })).json()) as {
        data: { user_agent: string; session_id: string; origin: string };
      };
      assert.equal(one.data.user_agent, HEADERS['user-agent']);
      assert.equal(one.data.session_id, 'sess-cc-1');
      assert.equal(one.data.origin, 'https://ide.example');
      const list = async (query: string) =>
        (
          (await (await fetch(`${gw.server.api}/generations?${query}`, { headers: auth })).json()) as {
            data: { id: string; session_id: string | null }[];
          }
        ).data.map((g) => g.id);
      assert.ok((await list('session_id=sess-cc-1')).includes(id));
      assert.ok((await list('user_agent=claude-cli')).includes(id));
      assert.equal((await list('session_id=another')).includes(id), false);
      assert.equal((await list('user_agent=codex')).includes(id), false);
      // A refused call records who made it too.
      const refused = await send(
        { ...CLAUDE_CODE_BODY, model: 'nobody/unknown' },
        { ...HEADERS, 'x-claude-code-session-id': 'sess-refused' },
      );
      assert.equal(refused.status, 404, refused.text);
      await gw.server.running.services.meter.flush();
      assert.equal((await list('session_id=sess-refused&status=refused')).length, 1);
    });

    it('the strict Anthropic fake refuses context_management without its beta', async () => {
      const { 'anthropic-beta': _beta, ...noBeta } = HEADERS;
      const res = await send({ ...CLAUDE_CODE_BODY, model: 'anthropic/claude-test' }, noBeta);
      assert.equal(res.status, 400, res.text);
      assert.match(res.text, /context_management/);
    });

    it('a chat without max_tokens gets the catalog output limit on an Anthropic upstream', async () => {
      const res = await fetch(`${gw.server.api}/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${gw.apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'anthropic/claude-test', messages: [{ role: 'user', content: 'hi' }] }),
      });
      assert.equal(res.status, 200, await res.text());
      assert.equal(gw.fake.requests[0]?.body?.max_tokens, 64000);
    });
  });
}
