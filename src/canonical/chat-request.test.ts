import { test } from 'node:test';
import assert from 'node:assert/strict';
import { maxOutputTokens, stopList, toCanonicalChatRequest } from './chat-request.js';
import { addUsage, makeUsage, parseOpenAiUsage } from './usage.js';

test('toCanonicalChatRequest: typed fields, extras kept, gateway-only fields dropped, upstream model', () => {
  const req = toCanonicalChatRequest(
    {
      model: 'openai/gpt-4o',
      models: ['a', 'b'],
      provider: { order: ['x'] },
      plugins: [],
      session_id: 's',
      messages: [{ role: 'user', content: 'hi' }],
      temperature: 0.1,
      prediction: { type: 'content', content: 'x' },
      service_tier: 'flex',
      stream_options: { include_usage: true },
    },
    'gpt-4o-2024-08-06',
  );
  assert.equal(req.model, 'gpt-4o-2024-08-06');
  assert.equal(req.temperature, 0.1);
  assert.deepEqual(req.extra, { prediction: { type: 'content', content: 'x' }, service_tier: 'flex' });
});

test('maxOutputTokens and stopList', () => {
  assert.equal(maxOutputTokens({ model: 'm', messages: [], extra: {}, max_tokens: 5, max_completion_tokens: 9 }), 9);
  assert.equal(maxOutputTokens({ model: 'm', messages: [], extra: {}, max_tokens: null }), null);
  assert.deepEqual(stopList({ stop: 'x' }), ['x']);
  assert.deepEqual(stopList({ stop: null }), []);
});

test('usage parsing and summing', () => {
  assert.deepEqual(parseOpenAiUsage({ prompt_tokens: 3, completion_tokens: 4 }), makeUsage(3, 4));
  assert.equal(parseOpenAiUsage('x'), null);
  const u = parseOpenAiUsage({
    prompt_tokens: 3,
    completion_tokens: 4,
    total_tokens: 7,
    prompt_tokens_details: { cached_tokens: 2 },
  });
  assert.equal(u?.prompt_tokens_details?.cached_tokens, 2);
  assert.deepEqual(addUsage(makeUsage(1, 2), makeUsage(3, 4)), makeUsage(4, 6));
});
