import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { nativeEventText, type CanonicalChunk } from '../../../canonical/index.js';
import { isGatewayError } from '../../../errors/index.js';
import { decodeMessagesRequest } from './decode.js';
import { encodeMessagesResponse, messagesUsage, stopReason } from './encode.js';
import { Value } from '@sinclair/typebox/value';
import { MessagesRequestSchema, type MessagesRequestBody } from '../../../canonical/index.js';
import { MessagesStreamEncoder, type MessagesEvent } from './stream-encoder.js';

/** A request body as a client sends it, checked against the route's schema first. */
function body(extra: Record<string, unknown>): MessagesRequestBody {
  const value: unknown = { model: 'claude-x', max_tokens: 100, messages: [{ role: 'user', content: 'hi' }], ...extra };
  if (!Value.Check(MessagesRequestSchema, value))
    assert.fail(JSON.stringify([...Value.Errors(MessagesRequestSchema, value)][0]));
  return value;
}

describe('Messages request → canonical', () => {
  it('maps system, sampling, stop sequences, metadata, tools, tool_choice and thinking', () => {
    const out = decodeMessagesRequest(
      body({
        system: [
          { type: 'text', text: 'one' },
          { type: 'text', text: 'two' },
        ],
        temperature: 0.5,
        top_p: 0.9,
        top_k: 40,
        stop_sequences: ['END'],
        metadata: { user_id: 'u-1' },
        stream: true,
        tools: [{ name: 'weather', description: 'w', input_schema: { type: 'object' } }],
        tool_choice: { type: 'any', disable_parallel_tool_use: true },
        thinking: { type: 'enabled', budget_tokens: 2048 },
      }),
    );
    assert.deepEqual(out.messages[0], { role: 'system', content: 'one\n\ntwo' });
    assert.equal(out.max_tokens, 100);
    assert.deepEqual(
      [out.temperature, out.top_p, out.top_k, out.stop, out.user, out.stream],
      [0.5, 0.9, 40, ['END'], 'u-1', true],
    );
    assert.deepEqual(out.tools, [
      { type: 'function', function: { name: 'weather', parameters: { type: 'object' }, description: 'w' } },
    ]);
    assert.equal(out.tool_choice, 'required');
    assert.equal(out.parallel_tool_calls, false);
    assert.deepEqual(out.reasoning, { max_tokens: 2048 });
    assert.deepEqual(decodeMessagesRequest(body({ tool_choice: { type: 'tool', name: 'x' } })).tool_choice, {
      type: 'function',
      function: { name: 'x' },
    });
  });

  it('maps images, tool use and results (results first), thinking blocks with their signatures', () => {
    const out = decodeMessagesRequest(
      body({
        messages: [
          {
            role: 'user',
            content: [
              { type: 'text', text: 'look', cache_control: { type: 'ephemeral' } },
              { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'AAA' } },
              { type: 'image', source: { type: 'url', url: 'https://example.com/a.png' } },
            ],
          },
          {
            role: 'assistant',
            content: [
              { type: 'thinking', thinking: 'hmm', signature: 'sig' },
              { type: 'text', text: 'calling' },
              { type: 'tool_use', id: 't1', name: 'weather', input: { city: 'Paris' } },
            ],
          },
          {
            role: 'user',
            content: [
              { type: 'text', text: 'and?' },
              { type: 'tool_result', tool_use_id: 't1', content: [{ type: 'text', text: 'sunny' }] },
            ],
          },
        ],
      }),
    );
    assert.deepEqual(out.messages[0], {
      role: 'user',
      content: [
        { type: 'text', text: 'look', cache_control: { type: 'ephemeral' } },
        { type: 'image_url', image_url: { url: 'data:image/png;base64,AAA' } },
        { type: 'image_url', image_url: { url: 'https://example.com/a.png' } },
      ],
    });
    assert.deepEqual(out.messages[1], {
      role: 'assistant',
      content: 'calling',
      reasoning: 'hmm',
      reasoning_details: [
        { type: 'reasoning.text', text: 'hmm', format: 'anthropic-claude-v1', index: 0, signature: 'sig' },
      ],
      tool_calls: [{ id: 't1', type: 'function', function: { name: 'weather', arguments: '{"city":"Paris"}' } }],
    });
    assert.deepEqual(out.messages[2], { role: 'tool', tool_call_id: 't1', content: [{ type: 'text', text: 'sunny' }] });
    assert.deepEqual(out.messages[3], { role: 'user', content: [{ type: 'text', text: 'and?' }] });
  });

  it('names the field of a malformed block in a 400', () => {
    const cases: [unknown[], RegExp][] = [
      [
        [{ role: 'user', content: [{ type: 'image', source: { type: 'file' } }] }],
        /messages\[0\]\.content\[0\]\.source\.type/,
      ],
      [[{ role: 'user', content: [{ type: 'text' }] }], /messages\[0\]\.content\[0\]\.text/],
      [[{ role: 'assistant', content: [{ type: 'tool_use', name: 'x' }] }], /messages\[0\]\.content\[0\]\.id/],
      [[{ role: 'user', content: [{ type: 'tool_result' }] }], /tool_use_id/],
    ];
    for (const [messages, field] of cases)
      assert.throws(
        () => decodeMessagesRequest(body({ messages })),
        (e) => isGatewayError(e) && e.status === 400 && field.test(e.message),
      );
  });
});

describe('canonical → Messages answer', () => {
  it('encodes text, thinking and tool calls, the stop reason and usage without cached tokens', () => {
    const answer = encodeMessagesResponse(
      {
        id: 'up-1',
        object: 'chat.completion',
        created: 1,
        model: 'up',
        system_fingerprint: null,
        choices: [
          {
            index: 0,
            finish_reason: 'tool_calls',
            message: {
              role: 'assistant',
              content: 'ok',
              refusal: null,
              reasoning_details: [{ type: 'reasoning.text', text: 'why', signature: 's' }],
              tool_calls: [{ id: 'c1', type: 'function', function: { name: 'f', arguments: '{"a":1}' } }],
            },
          },
        ],
        usage: {
          prompt_tokens: 10,
          completion_tokens: 5,
          total_tokens: 15,
          prompt_tokens_details: { cached_tokens: 4 },
        },
      },
      { id: 'gen-1', model: 'a/b' },
    );
    assert.deepEqual(answer, {
      id: 'gen-1',
      type: 'message',
      role: 'assistant',
      model: 'a/b',
      content: [
        { type: 'thinking', thinking: 'why', signature: 's' },
        { type: 'text', text: 'ok' },
        { type: 'tool_use', id: 'c1', name: 'f', input: { a: 1 } },
      ],
      stop_reason: 'tool_use',
      stop_sequence: null,
      usage: { input_tokens: 6, output_tokens: 5, cache_creation_input_tokens: 0, cache_read_input_tokens: 4 },
    });
  });

  it('translates stop reasons, keeping an Anthropic upstream’s own', () => {
    assert.equal(stopReason('stop'), 'end_turn');
    assert.equal(stopReason('length'), 'max_tokens');
    assert.equal(stopReason('content_filter'), 'refusal');
    assert.equal(stopReason('stop', 'stop_sequence'), 'stop_sequence');
    assert.equal(stopReason('stop', 'eos'), 'end_turn');
    assert.equal(stopReason(null), null);
    assert.deepEqual(messagesUsage(null).input_tokens, 0);
  });
});

describe('canonical chunks → Messages events', () => {
  const chunk = (delta: CanonicalChunk['choices'][number]['delta'], finish: string | null = null): CanonicalChunk => ({
    id: 'x',
    object: 'chat.completion.chunk',
    created: 1,
    model: 'm',
    choices: [{ index: 0, delta, finish_reason: finish }],
  });

  it('emits the exact event sequence for thinking, text and a tool call, usage in message_delta', () => {
    const enc = new MessagesStreamEncoder({ id: 'gen-1', model: 'a/b' });
    const events: MessagesEvent[] = [
      ...enc.start(),
      ...enc.chunk(chunk({ role: 'assistant', content: '' })),
      ...enc.chunk(chunk({ reasoning: 'think' })),
      ...enc.chunk(chunk({ reasoning_details: [{ type: 'reasoning.text', signature: 'sig' }] })),
      ...enc.chunk(chunk({ content: 'Hel' })),
      ...enc.chunk(chunk({ content: 'lo' })),
      ...enc.chunk(chunk({ tool_calls: [{ index: 0, id: 'c1', function: { name: 'f', arguments: '' } }] })),
      ...enc.chunk(chunk({ tool_calls: [{ index: 0, function: { arguments: '{"a":' } }] })),
      ...enc.chunk(chunk({ tool_calls: [{ index: 0, function: { arguments: '1}' } }] }, 'tool_calls')),
      ...enc.chunk({ ...chunk({}), choices: [], usage: { prompt_tokens: 7, completion_tokens: 3, total_tokens: 10 } }),
      ...enc.end(),
    ];
    assert.deepEqual(
      events.map((e) =>
        e.event === 'content_block_delta' ? `delta:${String((e.data.delta as { type: string }).type)}` : e.event,
      ),
      [
        'message_start',
        'content_block_start',
        'ping',
        'delta:thinking_delta',
        'delta:signature_delta',
        'content_block_stop',
        'content_block_start',
        'delta:text_delta',
        'delta:text_delta',
        'content_block_stop',
        'content_block_start',
        'delta:input_json_delta',
        'delta:input_json_delta',
        'content_block_stop',
        'message_delta',
        'message_stop',
      ],
    );
    assert.deepEqual(events[10]?.data, {
      type: 'content_block_start',
      index: 2,
      content_block: { type: 'tool_use', id: 'c1', name: 'f', input: {} },
    });
    assert.deepEqual(events.at(-2)?.data, {
      type: 'message_delta',
      delta: { stop_reason: 'tool_use', stop_sequence: null },
      usage: { input_tokens: 7, output_tokens: 3, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
    });
  });

  it("writes each delta's text as the JSON of its data, escapes included", () => {
    const enc = new MessagesStreamEncoder({ id: 'g', model: 'm' });
    const odd = 'quote " backslash \\ newline \n tab \t é 😀 \u2028 \u0001 </script>';
    const events = [
      ...enc.start(),
      ...enc.chunk(chunk({ reasoning: odd })),
      ...enc.chunk(chunk({ reasoning_details: [{ type: 'reasoning.text', signature: odd }] })),
      ...enc.chunk(chunk({ content: odd })),
      ...enc.chunk(chunk({ content: '' })),
      ...enc.chunk(chunk({ tool_calls: [{ index: 0, id: 'c1', function: { name: 'f', arguments: odd } }] })),
      ...enc.end(),
    ];
    const deltas = events.filter((e) => e.event === 'content_block_delta');
    assert.equal(deltas.length, 4);
    for (const e of deltas) assert.equal(e.text, JSON.stringify(e.data));
    for (const e of events) assert.equal(nativeEventText(e), JSON.stringify(e.data));
  });

  it('an empty answer still pings and ends with end_turn and the fallback usage', () => {
    const enc = new MessagesStreamEncoder({ id: 'g', model: 'm' });
    const events = [...enc.start(), ...enc.end({ prompt_tokens: 2, completion_tokens: 0, total_tokens: 2 })];
    assert.deepEqual(
      events.map((e) => e.event),
      ['message_start', 'ping', 'message_delta', 'message_stop'],
    );
    assert.equal((events[2]?.data.delta as { stop_reason: string }).stop_reason, 'end_turn');
  });
});
