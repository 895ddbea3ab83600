import assert from 'node:assert/strict';
import { it } from 'node:test';
import { Value } from '@sinclair/typebox/value';
import { MessagesRequestSchema, type MessagesRequestBody } from '../../../canonical/index.js';
import { messagesTexts } from './texts.js';

it('finds every text the model reads and writes redactions back in place, sharing the rest', () => {
  const value: unknown = {
    model: 'm',
    max_tokens: 10,
    system: [{ type: 'text', text: 'sys a@b.co', cache_control: { type: 'ephemeral' } }],
    messages: [
      { role: 'user', content: 'plain' },
      {
        role: 'assistant',
        content: [
          { type: 'thinking', thinking: 'secret thoughts', signature: 'sig' },
          { type: 'tool_use', id: 't', name: 'mail', input: { to: ['x@y.z'], n: 1 } },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 't', content: [{ type: 'text', text: 'sent' }] },
          { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'AAAA' } },
          { type: 'document', source: { type: 'text', media_type: 'text/plain', data: 'doc' } },
          { type: 'text', text: 'mail me at me@example.com', cache_control: { type: 'ephemeral' } },
        ],
      },
    ],
  };
  assert.ok(Value.Check(MessagesRequestSchema, value));
  const body: MessagesRequestBody = value;
  const found = messagesTexts(body);
  assert.deepEqual(found.segments, [
    { role: 'system', text: 'sys a@b.co' },
    { role: 'user', text: 'plain' },
    { role: 'assistant', text: 'x@y.z' },
    { role: 'tool', text: 'sent' },
    { role: 'user', text: 'doc' },
    { role: 'user', text: 'mail me at me@example.com' },
  ]);
  const out = found.withTexts([
    { index: 2, text: '[EMAIL]' },
    { index: 5, text: 'mail me at [EMAIL]' },
  ]);
  const last = out.messages[2]?.content;
  assert.ok(Array.isArray(last));
  assert.deepEqual(last[3], { type: 'text', text: 'mail me at [EMAIL]', cache_control: { type: 'ephemeral' } });
  assert.equal(last[1], (body.messages[2]?.content as unknown[])[1], 'untouched blocks are shared');
  assert.deepEqual((out.messages[1]?.content as { input?: unknown }[])[1]?.input, { to: ['[EMAIL]'], n: 1 });
  assert.equal(out.system, body.system);
  assert.equal(JSON.stringify(body).includes('me@example.com'), true, 'the original body is not changed');
});
