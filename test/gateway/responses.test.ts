import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import OpenAI from 'openai';
import { FAKE_TEXT, FAKE_TOOL_ARGS, FAKE_USAGE } from '../fake-upstream/index.js';
import { PRICES, startGateway, type GatewayHarness } from '../support/gateway.js';
import { call } from '../support/server.js';
import { surfacesCatalog } from './surfaces-support.js';

type Json = Record<string, unknown>;
const close = (a: number, b: number) => Math.abs(a - b) < 1e-12;
const weather = {
  type: 'function' as const,
  name: 'get_weather',
  description: 'Weather of a city',
  parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
  strict: true,
};

/** The OpenAI SDK's `responses` against Switchyard, routed to both upstream wire formats. */
describe('POST /responses through the openai SDK', () => {
  let gw: GatewayHarness;
  let openai: OpenAI;
  const upstream = () => gw.fake.requests.at(-1)?.body as Json;

  before(async () => {
    gw = await startGateway({ dialect: 'sqlite', catalog: surfacesCatalog });
    openai = new OpenAI({ apiKey: gw.apiKey, baseURL: gw.server.api, maxRetries: 0 });
  });
  after(() => gw.close());
  beforeEach(() => gw.fake.reset());

  it('JSON: output_text, usage with cost, the generation id that GET /generation reads (api_type completions, api_surface responses)', async () => {
    const res = await openai.responses.create({
      model: 'openai/gpt-test',
      instructions: 'be brief',
      input: 'hello',
      max_output_tokens: 40,
      store: true,
      metadata: { team: 'a' },
    });
    assert.match(res.id, /^gen-/);
    assert.equal(res.object, 'response');
    assert.equal(res.status, 'completed');
    assert.equal(res.output_text, FAKE_TEXT);
    assert.equal(res.model, 'openai/gpt-test');
    assert.equal(res.usage?.input_tokens, FAKE_USAGE.prompt_tokens);
    assert.equal(res.usage?.output_tokens, FAKE_USAGE.completion_tokens);
    const cost = (res.usage as unknown as { cost: number }).cost;
    const expected =
      FAKE_USAGE.prompt_tokens * PRICES.primary.prompt + FAKE_USAGE.completion_tokens * PRICES.primary.completion;
    assert.ok(close(cost, expected), `${cost} vs ${expected}`);
    assert.deepEqual(upstream().messages, [
      { role: 'system', content: 'be brief' },
      { role: 'user', content: 'hello' },
    ]);
    assert.equal(upstream().max_completion_tokens, 40);
    assert.equal(upstream().store, undefined, 'store is accepted, never forwarded');
    const gen = await call<{ data: { id: string; api_type: string; api_surface: string; total_cost: number } }>(
      gw.server,
      'GET',
      `/generation?id=${res.id}`,
      { token: gw.apiKey },
    );
    assert.equal(gen.status, 200, JSON.stringify(gen.body));
    assert.equal(gen.body.data.api_type, 'completions');
    assert.equal(gen.body.data.api_surface, 'responses');
    assert.ok(close(gen.body.data.total_cost, expected));
  });

  it('stream: typed events with sequence numbers, text deltas, response.completed with usage', async () => {
    const stream = await openai.responses.create({ model: 'openai/gpt-test', input: 'hi', stream: true });
    const types: string[] = [];
    const seq: number[] = [];
    let text = '';
    let completed: OpenAI.Responses.Response | null = null;
    for await (const event of stream) {
      types.push(event.type);
      seq.push(event.sequence_number);
      if (event.type === 'response.output_text.delta') text += event.delta;
      if (event.type === 'response.completed') completed = event.response;
    }
    assert.equal(text, FAKE_TEXT);
    assert.deepEqual(types.slice(0, 4), [
      'response.created',
      'response.in_progress',
      'response.output_item.added',
      'response.content_part.added',
    ]);
    assert.equal(types.at(-1), 'response.completed');
    assert.deepEqual(
      seq,
      seq.map((_, i) => i),
    );
    assert.equal(completed?.usage?.total_tokens, FAKE_USAGE.total_tokens);
    assert.match(completed?.id ?? '', /^gen-/);
    // The SDK's own accumulator (responses.stream) builds the same final answer.
    const helper = openai.responses.stream({ model: 'openai/gpt-test', input: 'hi' });
    const final = await helper.finalResponse();
    const message = final.output.find((o) => o.type === 'message');
    assert.deepEqual(
      message?.type === 'message' ? message.content.map((c) => (c.type === 'output_text' ? c.text : '')) : [],
      [FAKE_TEXT],
    );
  });

  it('a function tool round trip (JSON and streamed arguments)', async () => {
    gw.fake.queue('tool-call');
    const first = await openai.responses.create({
      model: 'openai/gpt-test',
      input: 'weather in Paris?',
      tools: [weather],
    });
    const fc = first.output.find((o) => o.type === 'function_call');
    assert.ok(fc?.type === 'function_call');
    assert.equal(fc.name, 'get_weather');
    assert.equal(fc.arguments, FAKE_TOOL_ARGS);
    assert.deepEqual(upstream().tools, [
      {
        type: 'function',
        function: {
          name: 'get_weather',
          description: 'Weather of a city',
          parameters: weather.parameters,
          strict: true,
        },
      },
    ]);
    const second = await openai.responses.create({
      model: 'openai/gpt-test',
      tools: [weather],
      input: [
        { role: 'user', content: 'weather in Paris?' },
        { type: 'function_call', call_id: fc.call_id, name: fc.name, arguments: fc.arguments },
        { type: 'function_call_output', call_id: fc.call_id, output: '{"sky":"clear"}' },
      ],
    });
    assert.equal(second.output_text, FAKE_TEXT);
    const messages = upstream().messages as Json[];
    assert.deepEqual(messages.at(-1), { role: 'tool', tool_call_id: fc.call_id, content: '{"sky":"clear"}' });
    gw.fake.queue('tool-call');
    const stream = await openai.responses.create({
      model: 'openai/gpt-test',
      input: 'x',
      tools: [weather],
      stream: true,
    });
    let args = '';
    let done: { arguments: string; name: string } | null = null;
    for await (const e of stream) {
      if (e.type === 'response.function_call_arguments.delta') args += e.delta;
      if (e.type === 'response.function_call_arguments.done') done = e;
    }
    assert.equal(args, FAKE_TOOL_ARGS);
    assert.equal(done?.name, 'get_weather');
  });

  it('routed to an Anthropic upstream: instructions, an image and a tool translated; JSON and stream', async () => {
    const input: OpenAI.Responses.ResponseInput = [
      {
        role: 'user',
        content: [
          { type: 'input_text', text: 'what is this?' },
          { type: 'input_image', image_url: 'data:image/png;base64,iVBORw0KGgo=', detail: 'auto' },
        ],
      },
    ];
    const res = await openai.responses.create({
      model: 'anthropic/claude-test',
      instructions: 'be brief',
      input,
      tools: [weather],
    });
    assert.equal(res.output_text, FAKE_TEXT);
    const sent = gw.fake.requests.at(-1);
    assert.equal(sent?.path, '/v1/messages');
    assert.equal((sent?.body as Json).system, 'be brief');
    assert.deepEqual(((sent?.body as Json).messages as Json[])[0], {
      role: 'user',
      content: [
        { type: 'text', text: 'what is this?' },
        { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' } },
      ],
    });
    assert.equal(((sent?.body as Json).tools as Json[])[0]?.name, 'get_weather');
    gw.fake.queue('tool-call');
    const stream = await openai.responses.create({
      model: 'anthropic/claude-test',
      input,
      tools: [weather],
      stream: true,
    });
    const items: string[] = [];
    let usage: OpenAI.Responses.ResponseUsage | undefined;
    for await (const e of stream) {
      if (e.type === 'response.output_item.done') items.push(e.item.type);
      if (e.type === 'response.completed') usage = e.response.usage;
    }
    assert.ok(items.includes('function_call'), items.join());
    assert.ok((usage?.input_tokens ?? 0) > 0);
  });

  it('4xx: an unknown previous response (404), a conversation, a chat model that does not exist for responses, an embeddings model', async () => {
    const status = async (body: Json) => {
      const res = await call<{ error: { message: string; metadata?: Json } }>(gw.server, 'POST', '/responses', {
        token: gw.apiKey,
        body,
      });
      return { status: res.status, message: res.body.error.message, field: res.body.error.metadata?.field };
    };
    const prev = await status({ model: 'openai/gpt-test', input: 'x', previous_response_id: 'resp_1' });
    assert.deepEqual([prev.status, prev.field], [404, 'previous_response_id']);
    assert.equal((await status({ model: 'openai/gpt-test', input: 'x', conversation: 'c' })).field, 'conversation');
    const kind = await status({ model: 'openai/embed-test', input: 'x' });
    assert.equal(kind.status, 400);
    assert.match(kind.message, /"openai\/embed-test" does not serve chat/);
    await assert.rejects(
      openai.responses.create({ model: 'openai/gpt-test', input: 'x', previous_response_id: 'resp_1' }),
      (e: unknown) => e instanceof OpenAI.APIError && e.status === 404,
    );
  });

  it('a mid-stream upstream failure ends the stream with response.failed', async () => {
    gw.fake.queue('mid-stream-error');
    const stream = await openai.responses.create({ model: 'openai/gpt-test', input: 'x', stream: true });
    const types: string[] = [];
    for await (const e of stream) types.push(e.type);
    assert.equal(types.at(-1), 'response.failed');
  });

  it('presets: POST /presets/{slug}/responses saves instructions as the system prompt; @preset/slug works on /responses', async () => {
    const saved = await call<{ data: { designated_version: { config: Json; system_prompt: string | null } } }>(
      gw.server,
      'POST',
      '/presets/resp-preset/responses',
      {
        token: gw.server.managementToken,
        body: { model: 'openai/gpt-test', instructions: 'always rhyme', temperature: 0.3, max_output_tokens: 20 },
      },
    );
    assert.equal(saved.status, 200, JSON.stringify(saved.body));
    const res = await openai.responses.create({ model: '@preset/resp-preset', input: 'hello' });
    assert.equal(res.output_text, FAKE_TEXT);
    assert.equal(res.model, 'openai/gpt-test');
    const body = upstream();
    assert.equal(body.temperature, 0.3);
    assert.deepEqual((body.messages as Json[])[0], { role: 'system', content: 'always rhyme' });
  });
});
