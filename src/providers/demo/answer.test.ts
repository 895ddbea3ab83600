import assert from 'node:assert/strict';
import { test } from 'node:test';
import { demoAnswer } from './answer.js';

test('demoAnswer: a json_schema response format is answered with a valid value, in pieces', () => {
  const a = demoAnswer({
    model: 'echo',
    messages: [{ role: 'user', content: 'Ada' }],
    response_format: {
      type: 'json_schema',
      json_schema: {
        name: 'person',
        schema: {
          type: 'object',
          properties: { name: { type: 'string' }, age: { type: 'integer' } },
          required: ['name', 'age'],
        },
      },
    },
    extra: {},
  });
  assert.deepEqual(JSON.parse(a.pieces.join('')), { name: 'Ada (name)', age: 1 });
  assert.ok(a.pieces.length > 1, 'streamed in several pieces');
  const obj = demoAnswer({
    model: 'echo',
    messages: [{ role: 'user', content: 'hi' }],
    response_format: { type: 'json_object' },
    extra: {},
  });
  assert.deepEqual(JSON.parse(obj.pieces.join('')), { reply: 'hi' });
});
