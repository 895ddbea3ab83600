import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { AnswerOf } from '../../canonical/index.js';
import { responsesCodec } from './codec.js';
import { decodeResponsesRequest } from './request.js';
import { StreamedReasoning } from './reasoning-state.js';
import type { ResponseObject } from './wire.js';

const answer = {
  id: 'gen-1-abc',
  object: 'chat.completion',
  created: 1,
  model: 'anthropic/claude-test',
  system_fingerprint: null,
  choices: [
    {
      index: 0,
      finish_reason: 'tool_calls',
      message: {
        role: 'assistant',
        content: null,
        refusal: null,
        reasoning: 'Check the weather.',
        reasoning_details: [
          { type: 'reasoning.text', text: 'Check the weather.', signature: 'sig-1', format: 'anthropic-claude-v1' },
        ],
        tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'weather', arguments: '{}' } }],
      },
    },
  ],
  usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2, cost: 0 },
} as unknown as AnswerOf<'chat'>;

describe('reasoning items round-tripped through encrypted_content', () => {
  it('an answer’s signed reasoning goes out in encrypted_content and comes back onto the assistant turn', () => {
    const codec = responsesCodec();
    codec.decode({ model: 'm', input: 'weather?' });
    const response = codec.answer(answer) as ResponseObject;
    const reasoning = response.output.find((i) => i.type === 'reasoning');
    assert.ok(reasoning?.type === 'reasoning');
    assert.match(reasoning.encrypted_content ?? '', /^sy1\./);
    const call = response.output.find((i) => i.type === 'function_call');
    const next = decodeResponsesRequest({
      model: 'm',
      input: [
        { role: 'user', content: 'weather?' },
        reasoning,
        call,
        { type: 'function_call_output', call_id: 'call_1', output: 'sunny' },
        { type: 'reasoning', id: 'rs_other', summary: [], encrypted_content: 'gAAAA-another-servers' },
      ],
    });
    const [, assistant, tool] = next.body.messages;
    assert.deepEqual(assistant, {
      role: 'assistant',
      content: null,
      reasoning: 'Check the weather.',
      reasoning_details: [
        { type: 'reasoning.text', text: 'Check the weather.', signature: 'sig-1', format: 'anthropic-claude-v1' },
      ],
      tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'weather', arguments: '{}' } }],
    });
    assert.equal(tool?.role, 'tool');
    assert.equal(next.body.messages.length, 3, 'another server’s reasoning is dropped');
  });

  it('a stream’s text pieces and signature make one detail per thinking block', () => {
    const streamed = new StreamedReasoning();
    streamed.add({ reasoning: 'one ' });
    streamed.add({ reasoning: 'two' });
    streamed.add({ reasoning_details: [{ type: 'reasoning.text', signature: 's1' }] });
    streamed.add({ reasoning: 'three' });
    streamed.add({ reasoning_details: [{ type: 'reasoning.text', signature: 's2' }] });
    const [event] = streamed.events([
      { type: 'response.output_item.done', sequence_number: 3, item: { type: 'reasoning', id: 'rs_1', summary: [] } },
    ]);
    const encrypted = (event?.item as { encrypted_content: string }).encrypted_content;
    const turn = decodeResponsesRequest({
      model: 'm',
      input: [
        { role: 'user', content: 'x' },
        { type: 'reasoning', id: 'rs_1', summary: [], encrypted_content: encrypted },
        { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'done' }] },
      ],
    }).body.messages[1];
    assert.deepEqual(turn, {
      role: 'assistant',
      content: 'done',
      reasoning: 'one twothree',
      reasoning_details: [
        { type: 'reasoning.text', text: 'one two', signature: 's1' },
        { type: 'reasoning.text', text: 'three', signature: 's2' },
      ],
    });
  });
});
