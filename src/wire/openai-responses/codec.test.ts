import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Response as SdkResponse } from 'openai/resources/responses/responses';
import { isGatewayError } from '../../errors/index.js';
import { decodeResponsesRequest } from './request.js';
import { encodeResponse, type ResponseContext } from './response.js';
import { ResponsesStreamEncoder, sseEvent, type ResponsesStreamEvent } from './stream.js';

function refusal(body: Record<string, unknown>): { status: number; message: string; field: unknown } {
  try {
    decodeResponsesRequest(body);
  } catch (error) {
    assert.ok(isGatewayError(error));
    return { status: error.status, message: error.message, field: error.metadata?.field };
  }
  return assert.fail('expected a 400');
}

const weather = { type: 'function', name: 'get_weather', parameters: { type: 'object' }, strict: true };

describe('Responses codec: request', () => {
  it('a string input with instructions is a system and a user message; sampling fields carried', () => {
    const { body, echo } = decodeResponsesRequest({
      model: 'openai/gpt-test',
      input: 'hello',
      instructions: 'be brief',
      max_output_tokens: 50,
      temperature: 0.2,
      top_p: 0.9,
      store: true,
      include: ['reasoning.encrypted_content'],
      metadata: { team: 'a' },
      reasoning: { effort: 'low', summary: 'auto' },
      text: { format: { type: 'json_schema', name: 'x', schema: { type: 'object' }, strict: true }, verbosity: 'low' },
      provider: { order: ['fake'] },
      stream: true,
    });
    assert.deepEqual(body, {
      model: 'openai/gpt-test',
      provider: { order: ['fake'] },
      stream: true,
      temperature: 0.2,
      top_p: 0.9,
      messages: [
        { role: 'system', content: 'be brief' },
        { role: 'user', content: 'hello' },
      ],
      max_completion_tokens: 50,
      response_format: { type: 'json_schema', json_schema: { name: 'x', schema: { type: 'object' }, strict: true } },
      verbosity: 'low',
      reasoning_effort: 'low',
      metadata: { team: 'a' },
    });
    assert.equal(echo.instructions, 'be brief');
    assert.equal(echo.max_output_tokens, 50);
    assert.deepEqual(echo.reasoning, { effort: 'low', summary: 'auto' });
    assert.equal(echo.tool_choice, 'auto');
  });

  it('items: messages with text and images, a function call round trip, tools and tool_choice', () => {
    const { body, echo } = decodeResponsesRequest({
      model: 'm',
      input: [
        { role: 'developer', content: 'rules' },
        {
          type: 'message',
          role: 'user',
          content: [
            { type: 'input_text', text: 'what is this?' },
            { type: 'input_image', image_url: 'data:image/png;base64,AAAA', detail: 'low' },
          ],
        },
        { type: 'reasoning', id: 'rs_1', summary: [] },
        { type: 'function_call', call_id: 'call_1', name: 'get_weather', arguments: '{"city":"Paris"}' },
        { type: 'function_call', call_id: 'call_2', name: 'get_weather', arguments: '{"city":"Rome"}' },
        { type: 'function_call_output', call_id: 'call_1', output: 'sunny' },
        { type: 'function_call_output', call_id: 'call_2', output: [{ type: 'input_text', text: 'rain' }] },
        { role: 'assistant', content: [{ type: 'output_text', text: 'Paris is sunny.' }] },
      ],
      tools: [weather],
      tool_choice: { type: 'function', name: 'get_weather' },
      parallel_tool_calls: false,
    });
    assert.deepEqual(body.messages, [
      { role: 'developer', content: 'rules' },
      {
        role: 'user',
        content: [
          { type: 'text', text: 'what is this?' },
          { type: 'image_url', image_url: { url: 'data:image/png;base64,AAAA', detail: 'low' } },
        ],
      },
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          { id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } },
          { id: 'call_2', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Rome"}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'call_1', content: 'sunny' },
      { role: 'tool', tool_call_id: 'call_2', content: [{ type: 'text', text: 'rain' }] },
      { role: 'assistant', content: 'Paris is sunny.' },
    ]);
    assert.deepEqual(body.tools, [
      { type: 'function', function: { name: 'get_weather', parameters: { type: 'object' }, strict: true } },
    ]);
    assert.deepEqual(body.tool_choice, { type: 'function', function: { name: 'get_weather' } });
    assert.equal(body.parallel_tool_calls, false);
    assert.equal(echo.parallel_tool_calls, false);
    assert.deepEqual(echo.tools, [weather]);
  });

  it('400 naming the field: stored state, malformed tools and items, bad shapes', () => {
    const prev = refusal({ model: 'm', input: 'x', previous_response_id: 'resp_1' });
    assert.equal(prev.status, 400);
    assert.equal(prev.field, 'previous_response_id');
    assert.match(prev.message, /send the whole conversation/);
    assert.equal(refusal({ model: 'm', input: 'x', conversation: 'conv_1' }).field, 'conversation');
    assert.equal(
      refusal({ model: 'm', input: 'x', tools: [{ type: 'namespace', name: 'n' }] }).field,
      'tools[0].tools',
    );
    assert.equal(refusal({ model: 'm', input: 'x', tools: [{ type: 'custom' }] }).field, 'tools[0].name');
    assert.equal(refusal({ model: 'm', input: [{ type: 'item_reference', id: 'x' }] }).field, 'input[0].type');
    assert.equal(
      refusal({ model: 'm', input: [{ role: 'user', content: [{ type: 'input_audio' }] }] }).field,
      'input[0].content[0].type',
    );
    assert.equal(
      refusal({ model: 'm', input: [{ role: 'user', content: [{ type: 'input_image', file_id: 'f' }] }] }).field,
      'input[0].content[0].image_url',
    );
    assert.equal(refusal({ model: 'm' }).field, 'input');
    assert.equal(refusal({ model: 'm', input: [] }).field, 'input');
    assert.equal(refusal({ model: 'm', input: 'x', max_output_tokens: 0 }).field, 'max_output_tokens');
    assert.equal(
      refusal({ model: 'm', input: 'x', text: { format: { type: 'json_schema', name: 'n' } } }).field,
      'text.format.schema',
    );
    assert.equal(
      refusal({ model: 'm', input: [{ type: 'function_call_output', output: 'x' }] }).field,
      'input[0].call_id',
    );
  });
});

const ctx: ResponseContext = {
  id: 'gen-1-abc',
  model: 'openai/gpt-test',
  createdAt: 1_700_000_000,
  echo: decodeResponsesRequest({ model: 'm', input: 'x', tools: [weather] }).echo,
  provider: 'Fake',
};

describe('Responses codec: response object', () => {
  it('text, reasoning and function calls as output items, usage with details and cost', () => {
    const res = encodeResponse(
      {
        message: {
          role: 'assistant',
          content: 'Hi',
          reasoning: 'thinking',
          refusal: null,
          tool_calls: [{ id: 'call_9', type: 'function', function: { name: 'get_weather', arguments: '{}' } }],
        },
        finishReason: 'tool_calls',
        usage: {
          prompt_tokens: 10,
          completion_tokens: 5,
          total_tokens: 15,
          prompt_tokens_details: { cached_tokens: 4 },
          completion_tokens_details: { reasoning_tokens: 2 },
        },
        cost: 0.5,
      },
      ctx,
      1_700_000_001,
    );
    const sdk: SdkResponse = { ...res, output_text: '' }; // the SDK's own type accepts it
    assert.equal(sdk.id, 'gen-1-abc');
    assert.equal(res.status, 'completed');
    assert.deepEqual(
      res.output.map((o) => o.type),
      ['reasoning', 'message', 'function_call'],
    );
    assert.deepEqual(res.output[2], {
      type: 'function_call',
      id: 'fc_1-abc',
      call_id: 'call_9',
      name: 'get_weather',
      arguments: '{}',
      status: 'completed',
    });
    assert.deepEqual(res.usage, {
      input_tokens: 10,
      input_tokens_details: { cached_tokens: 4 },
      output_tokens: 5,
      output_tokens_details: { reasoning_tokens: 2 },
      total_tokens: 15,
      cost: 0.5,
    });
    const cut = encodeResponse(
      {
        message: { role: 'assistant', content: 'Hi', refusal: null },
        finishReason: 'length',
        usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
      },
      ctx,
    );
    assert.equal(cut.status, 'incomplete');
    assert.deepEqual(cut.incomplete_details, { reason: 'max_output_tokens' });
  });
});

/** What the SDK's stream accumulator does with the events (simplified): the final output. */
interface Acc {
  type: string;
  output_index: number;
  content_index: number;
  delta: string;
  item: Record<string, unknown> & { content: { text: string }[]; arguments: string };
  part: { text: string };
}
function accumulate(events: ResponsesStreamEvent[]): unknown[] {
  const output: Acc['item'][] = [];
  for (const e of JSON.parse(JSON.stringify(events)) as Acc[]) {
    const at = output[e.output_index];
    if (e.type === 'response.output_item.added') output.push(e.item);
    else if (at === undefined) continue;
    else if (e.type === 'response.output_item.done') {
      assert.deepEqual({ ...e.item, status: at.status }, at, 'the done item is what the deltas built');
      output[e.output_index] = e.item;
    } else if (e.type === 'response.content_part.added') at.content.push(e.part);
    else if (e.type === 'response.output_text.delta' || e.type === 'response.reasoning_text.delta') {
      const part = at.content[e.content_index];
      if (part !== undefined) part.text += e.delta;
    } else if (e.type === 'response.function_call_arguments.delta') at.arguments += e.delta;
  }
  return output;
}

describe('Responses codec: stream', () => {
  const base = { id: 'up', object: 'chat.completion.chunk' as const, created: 1, model: 'm' };
  const chunk = (delta: Record<string, unknown>, finish: string | null = null) => ({
    ...base,
    choices: [{ index: 0, delta, finish_reason: finish }],
  });

  it('reasoning, text and a tool call: the typed events in order, numbered, and a completed response', () => {
    const enc = new ResponsesStreamEncoder(ctx);
    const events = [
      ...enc.chunk(chunk({ role: 'assistant', reasoning: 'hm' })),
      ...enc.chunk(chunk({ content: 'Hel' })),
      ...enc.chunk(chunk({ content: 'lo' })),
      ...enc.chunk(
        chunk({ tool_calls: [{ index: 0, id: 'call_1', function: { name: 'get_weather', arguments: '{"a"' } }] }),
      ),
      ...enc.chunk(chunk({ tool_calls: [{ index: 0, function: { arguments: ':1}' } }] }, 'tool_calls')),
      ...enc.complete({ prompt_tokens: 3, completion_tokens: 4, total_tokens: 7 }, 0.25),
    ];
    assert.deepEqual(
      events.map((e) => e.type),
      [
        'response.created',
        'response.in_progress',
        'response.output_item.added',
        'response.content_part.added',
        'response.reasoning_text.delta',
        'response.reasoning_text.done',
        'response.content_part.done',
        'response.output_item.done',
        'response.output_item.added',
        'response.content_part.added',
        'response.output_text.delta',
        'response.output_text.delta',
        'response.output_text.done',
        'response.content_part.done',
        'response.output_item.done',
        'response.output_item.added',
        'response.function_call_arguments.delta',
        'response.function_call_arguments.delta',
        'response.function_call_arguments.done',
        'response.output_item.done',
        'response.completed',
      ],
    );
    assert.deepEqual(
      events.map((e) => e.sequence_number),
      events.map((_, i) => i),
    );
    const completed = JSON.parse(JSON.stringify(events.at(-1))) as { response: SdkResponse };
    assert.equal(completed.response.status, 'completed');
    assert.equal(completed.response.usage?.output_tokens, 4);
    assert.deepEqual(accumulate(events), JSON.parse(JSON.stringify(completed.response.output)));
    assert.match(
      sseEvent(events[0] as ResponsesStreamEvent),
      /^event: response\.created\ndata: \{"type":"response\.created","sequence_number":0,/,
    );
  });

  it('a failure after the start is response.failed; before it, an error event; length is incomplete', () => {
    const enc = new ResponsesStreamEncoder(ctx);
    enc.chunk(chunk({ content: 'Hel' }));
    const [failed] = enc.fail({ message: 'Provider stream failed', status: 502 });
    assert.equal(failed?.type, 'response.failed');
    const response = failed?.response as SdkResponse;
    assert.equal(response.status, 'failed');
    assert.deepEqual(response.error, { code: 'server_error', message: 'Provider stream failed' });
    assert.equal((response.output[0] as { status: string }).status, 'incomplete');
    const early = new ResponsesStreamEncoder(ctx).fail({ message: 'no provider', status: 503 });
    assert.deepEqual(early, [{ type: 'error', sequence_number: 0, code: '503', message: 'no provider', param: null }]);
    const cut = new ResponsesStreamEncoder(ctx);
    cut.chunk(chunk({ content: 'x' }, 'length'));
    const last = cut.complete({ prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 }).at(-1);
    assert.equal(last?.type, 'response.incomplete');
  });
});
