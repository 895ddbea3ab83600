import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { CanonicalChatRequest } from '../../../canonical/index.js';
import { messagesBody } from './request.js';

const base = (over: Partial<CanonicalChatRequest>): CanonicalChatRequest => ({
  model: 'claude-x',
  messages: [],
  extra: {},
  ...over,
});

test('system and developer messages become `system`; max_tokens defaults; stop → stop_sequences', () => {
  const body = messagesBody(
    base({
      messages: [
        { role: 'system', content: 'A' },
        { role: 'developer', content: [{ type: 'text', text: 'B' }] },
        { role: 'user', content: 'hi' },
      ],
      stop: 'END',
      temperature: 1.7,
      user: 'u-1',
      extra: { some_openai_only_field: 1 },
    }),
    false,
  );
  assert.equal(body.system, 'A\n\nB');
  assert.equal(body.max_tokens, 4096);
  assert.deepEqual(body.stop_sequences, ['END']);
  assert.equal(body.temperature, 1, 'clamped to the Messages API range');
  assert.deepEqual(body.metadata, { user_id: 'u-1' });
  assert.deepEqual(body.messages, [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }]);
  assert.equal(body.some_openai_only_field, undefined);
  assert.equal(body.stream, undefined);
});

test('max_completion_tokens wins; cache_control keeps system as blocks', () => {
  const body = messagesBody(
    base({
      messages: [
        { role: 'system', content: [{ type: 'text', text: 'S', cache_control: { type: 'ephemeral' } }] },
        { role: 'user', content: 'x' },
      ],
      max_tokens: 10,
      max_completion_tokens: 20,
    }),
    true,
  );
  assert.equal(body.max_tokens, 20);
  assert.deepEqual(body.system, [{ type: 'text', text: 'S', cache_control: { type: 'ephemeral' } }]);
  assert.equal(body.stream, true);
});

test('tools, tool_calls and tool results round-trip into tool_use / tool_result blocks', () => {
  const body = messagesBody(
    base({
      messages: [
        { role: 'user', content: 'weather?' },
        {
          role: 'assistant',
          content: 'checking',
          tool_calls: [
            { id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } },
            { id: 'call_2', type: 'function', function: { name: 'get_weather', arguments: 'not json' } },
          ],
        },
        { role: 'tool', tool_call_id: 'call_1', content: 'sunny' },
        { role: 'tool', tool_call_id: 'call_2', content: [{ type: 'text', text: 'rainy' }] },
        { role: 'user', content: 'thanks' },
      ],
      tools: [
        {
          type: 'function',
          function: { name: 'get_weather', description: 'd', parameters: { type: 'object', properties: {} } },
        },
        { type: 'openrouter:web_search' },
      ],
      tool_choice: { type: 'function', function: { name: 'get_weather' } },
      parallel_tool_calls: false,
    }),
    false,
  );
  assert.deepEqual(body.tools, [
    { name: 'get_weather', description: 'd', input_schema: { type: 'object', properties: {} } },
  ]);
  assert.deepEqual(body.tool_choice, { type: 'tool', name: 'get_weather', disable_parallel_tool_use: true });
  assert.deepEqual(body.messages, [
    { role: 'user', content: [{ type: 'text', text: 'weather?' }] },
    {
      role: 'assistant',
      content: [
        { type: 'text', text: 'checking' },
        { type: 'tool_use', id: 'call_1', name: 'get_weather', input: { city: 'Paris' } },
        { type: 'tool_use', id: 'call_2', name: 'get_weather', input: {} },
      ],
    },
    {
      role: 'user',
      content: [
        { type: 'tool_result', tool_use_id: 'call_1', content: 'sunny' },
        { type: 'tool_result', tool_use_id: 'call_2', content: 'rainy' },
        { type: 'text', text: 'thanks' },
      ],
    },
  ]);
});

test('tool_choice strings map to auto / any / none', () => {
  const tools = [{ type: 'function' as const, function: { name: 't' } }];
  assert.deepEqual(messagesBody(base({ tools, tool_choice: 'auto' }), false).tool_choice, { type: 'auto' });
  assert.deepEqual(messagesBody(base({ tools, tool_choice: 'required' }), false).tool_choice, { type: 'any' });
  assert.deepEqual(messagesBody(base({ tools, tool_choice: 'none' }), false).tool_choice, { type: 'none' });
  assert.equal(messagesBody(base({ tool_choice: 'auto' }), false).tool_choice, undefined, 'no tools, no tool_choice');
});

test('images: data URLs become base64 sources, others url sources', () => {
  const body = messagesBody(
    base({
      messages: [
        {
          role: 'user',
          content: [
            { type: 'image_url', image_url: { url: 'data:image/png;base64,AAAA' } },
            { type: 'image_url', image_url: { url: 'https://x.test/a.png' } },
          ],
        },
      ],
    }),
    false,
  );
  assert.deepEqual(body.messages, [
    {
      role: 'user',
      content: [
        { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'AAAA' } },
        { type: 'image', source: { type: 'url', url: 'https://x.test/a.png' } },
      ],
    },
  ]);
});

test('reasoning → thinking budget; temperature dropped; max_tokens above budget', () => {
  const body = messagesBody(
    base({
      messages: [{ role: 'user', content: 'x' }],
      reasoning: { max_tokens: 2000 },
      temperature: 0.3,
      max_tokens: 1000,
    }),
    false,
  );
  assert.deepEqual(body.thinking, { type: 'enabled', budget_tokens: 2000 });
  assert.equal(body.temperature, undefined);
  assert.ok((body.max_tokens as number) > 2000);
  const effort = messagesBody(
    base({ messages: [{ role: 'user', content: 'x' }], reasoning_effort: 'high', max_tokens: 10000 }),
    false,
  );
  assert.deepEqual(effort.thinking, { type: 'enabled', budget_tokens: 8000 });
  const none = messagesBody(base({ messages: [{ role: 'user', content: 'x' }], reasoning: { effort: 'none' } }), false);
  assert.equal(none.thinking, undefined);
});
