import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { CanonicalChatRequest } from '../../canonical/index.js';
import { generateContentBody } from './request.js';

const chat = (over: Partial<CanonicalChatRequest>): CanonicalChatRequest => ({
  model: 'gemini-2.5-pro',
  messages: [{ role: 'user', content: 'hi' }],
  extra: {},
  ...over,
});

test('sampling, stops and the output cap go to generationConfig', () => {
  const body = generateContentBody(
    chat({ temperature: 0.2, top_p: 0.9, top_k: 5, stop: 'END', max_completion_tokens: 64, seed: 7 }),
  );
  assert.deepEqual(body.generationConfig, {
    maxOutputTokens: 64,
    temperature: 0.2,
    topP: 0.9,
    topK: 5,
    seed: 7,
    stopSequences: ['END'],
  });
});

test('reasoning: an explicit budget, an effort against the cap, and off', () => {
  const budget = generateContentBody(chat({ reasoning: { max_tokens: 2048 } })).generationConfig as Record<
    string,
    unknown
  >;
  assert.deepEqual(budget.thinkingConfig, { thinkingBudget: 2048, includeThoughts: true });
  const effort = generateContentBody(chat({ reasoning_effort: 'high', max_tokens: 1000 })).generationConfig as Record<
    string,
    unknown
  >;
  assert.deepEqual(effort.thinkingConfig, { thinkingBudget: 800, includeThoughts: true });
  const hidden = generateContentBody(chat({ reasoning: { effort: 'low', exclude: true } })).generationConfig as Record<
    string,
    unknown
  >;
  assert.equal((hidden.thinkingConfig as Record<string, unknown>).includeThoughts, false);
  const off = generateContentBody(chat({ reasoning: { enabled: false } })).generationConfig as Record<string, unknown>;
  assert.deepEqual(off.thinkingConfig, { thinkingBudget: 0 });
  assert.equal(generateContentBody(chat({})).generationConfig, undefined, 'the model default when none is asked');
});

test('a named tool choice allows only that function; consecutive tool results are one user turn', () => {
  const body = generateContentBody(
    chat({
      tools: [
        { type: 'function', function: { name: 'a' } },
        { type: 'function', function: { name: 'b' } },
      ],
      tool_choice: { type: 'function', function: { name: 'b' } },
      messages: [
        { role: 'user', content: 'go' },
        {
          role: 'assistant',
          content: null,
          tool_calls: [
            { id: 'c1', type: 'function', function: { name: 'a', arguments: '{"x":1}' } },
            { id: 'c2', type: 'function', function: { name: 'b', arguments: 'not json' } },
          ],
          reasoning_details: [{ type: 'reasoning.encrypted', data: 'U0lH', id: 'c1', format: 'google-gemini-v1' }],
        },
        { role: 'tool', tool_call_id: 'c1', content: 'plain text' },
        { role: 'tool', tool_call_id: 'c2', content: '{"ok":true}' },
      ],
    }),
  );
  assert.deepEqual(body.toolConfig, { functionCallingConfig: { mode: 'ANY', allowedFunctionNames: ['b'] } });
  assert.deepEqual(body.contents, [
    { role: 'user', parts: [{ text: 'go' }] },
    {
      role: 'model',
      parts: [
        { functionCall: { id: 'c1', name: 'a', args: { x: 1 } }, thoughtSignature: 'U0lH' },
        { functionCall: { id: 'c2', name: 'b', args: {} } },
      ],
    },
    {
      role: 'user',
      parts: [
        { functionResponse: { id: 'c1', name: 'a', response: { result: 'plain text' } } },
        { functionResponse: { id: 'c2', name: 'b', response: { ok: true } } },
      ],
    },
  ]);
});

test('an image by URL is fileData with its media type; developer messages join the system instruction', () => {
  const body = generateContentBody(
    chat({
      messages: [
        { role: 'system', content: 'One.' },
        { role: 'developer', content: 'Two.' },
        { role: 'user', content: [{ type: 'image_url', image_url: { url: 'https://example.invalid/cat.webp?x=1' } }] },
      ],
    }),
  );
  assert.deepEqual(body.systemInstruction, { parts: [{ text: 'One.' }, { text: 'Two.' }] });
  assert.deepEqual(body.contents, [
    {
      role: 'user',
      parts: [{ fileData: { mimeType: 'image/webp', fileUri: 'https://example.invalid/cat.webp?x=1' } }],
    },
  ]);
});
