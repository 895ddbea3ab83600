// A Responses body as Codex sends it at its defaults (function, namespace, freeform and hosted
// tools, an `additional_tools` input item, reasoning items, client_metadata): accepted, the tools
// flattened for chat upstreams and the calls un-flattened on the way back, hosted tools dropped
// with a note in the response metadata, nothing OpenAI refuses forwarded.
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { startGateway, type GatewayHarness } from '../support/gateway.js';
import { surfacesCatalog } from './surfaces-support.js';

type Json = Record<string, unknown>;

const shell = { type: 'function', name: 'shell', parameters: { type: 'object', properties: {} }, strict: false };
const multiAgent = {
  type: 'namespace',
  name: 'multi_agent_v1',
  description: 'Sub-agents',
  tools: [{ type: 'function', name: 'spawn_agent', parameters: { type: 'object', properties: {} }, strict: false }],
};
const applyPatch = { type: 'custom', name: 'apply_patch', description: 'Patch files', format: { type: 'text' } };

function codexBody(tools: unknown[], extra: Json = {}): Json {
  return {
    model: 'openai/gpt-test',
    instructions: 'You are Codex.',
    input: [
      { type: 'additional_tools', role: 'developer', tools: [{ type: 'custom', name: 'exec', description: 'Run' }] },
      { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Fix the bug.' }] },
      { type: 'reasoning', id: 'rs_1', summary: [], encrypted_content: 'opaque-state' },
      { type: 'function_call', call_id: 'c1', name: 'spawn_agent', namespace: 'multi_agent_v1', arguments: '{}' },
      { type: 'function_call_output', call_id: 'c1', output: 'spawned' },
      { type: 'custom_tool_call', call_id: 'c2', name: 'apply_patch', input: '*** Begin Patch' },
      { type: 'custom_tool_call_output', call_id: 'c2', output: 'applied' },
    ],
    tools,
    tool_choice: 'auto',
    parallel_tool_calls: false,
    reasoning: { effort: 'medium', summary: 'auto' },
    store: false,
    stream: false,
    include: ['reasoning.encrypted_content'],
    prompt_cache_key: 'codex-session-1',
    client_metadata: { originator: 'codex_exec' },
    ...extra,
  };
}

describe('POST /responses as Codex sends it', () => {
  let gw: GatewayHarness;
  const post = async (body: Json) => {
    const res = await fetch(`${gw.server.api}/responses`, {
      method: 'POST',
      headers: { authorization: `Bearer ${gw.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return { status: res.status, text: await res.text() };
  };
  const upstream = () => gw.fake.requests.at(-1)?.body as Json;

  before(async () => {
    gw = await startGateway({ dialect: 'sqlite', catalog: surfacesCatalog });
  });
  after(() => gw.close());
  beforeEach(() => gw.fake.reset());

  it('flattens namespace, freeform and additional tools, drops web_search with a note, forwards nothing unknown', async () => {
    gw.fake.queue('tool-call');
    const res = await post(codexBody([multiAgent, shell, applyPatch, { type: 'web_search' }]));
    assert.equal(res.status, 200, res.text);
    const body = upstream();
    assert.deepEqual(
      (body.tools as { function: { name: string } }[]).map((t) => t.function.name),
      ['multi_agent_v1__spawn_agent', 'shell', 'apply_patch', 'exec'],
    );
    assert.equal('client_metadata' in body, false);
    assert.equal(body.prompt_cache_key, 'codex-session-1');
    const messages = body.messages as Json[];
    assert.deepEqual(
      messages.map((m) => m.role),
      ['system', 'user', 'assistant', 'tool', 'assistant', 'tool'],
    );
    assert.deepEqual((messages[2]?.tool_calls as Json[])[0], {
      id: 'c1',
      type: 'function',
      function: { name: 'multi_agent_v1__spawn_agent', arguments: '{}' },
    });
    assert.deepEqual(
      ((messages[4]?.tool_calls as Json[])[0]?.function as Json).arguments,
      '{"input":"*** Begin Patch"}',
    );
    const response = JSON.parse(res.text) as { output: Json[]; metadata: Record<string, string> | null };
    assert.equal(response.metadata?.switchyard_dropped_tools, 'web_search');
    const call = response.output.find((i) => i.type === 'function_call');
    assert.equal(call?.name, 'spawn_agent', 'the call comes back under the tool’s own name');
    assert.equal(call?.namespace, 'multi_agent_v1');
  });

  for (const stream of [false, true]) {
    it(`a freeform tool's call comes back as custom_tool_call (stream ${stream})`, async () => {
      gw.fake.queue('tool-call');
      const res = await post(codexBody([applyPatch], { stream }));
      assert.equal(res.status, 200, res.text);
      let output: Json[];
      if (stream) {
        const events = res.text
          .split('\n')
          .filter((l) => l.startsWith('data: '))
          .map((l) => JSON.parse(l.slice(6)) as Json);
        assert.equal(events.filter((e) => String(e.type).startsWith('response.function_call_arguments')).length, 0);
        assert.ok(events.some((e) => e.type === 'response.custom_tool_call_input.done'));
        output = ((events.at(-1)?.response as Json).output as Json[]) ?? [];
      } else output = (JSON.parse(res.text) as { output: Json[] }).output;
      const call = output.find((i) => i.type === 'custom_tool_call');
      assert.equal(call?.name, 'apply_patch');
      assert.equal(typeof call?.input, 'string');
    });
  }
});
