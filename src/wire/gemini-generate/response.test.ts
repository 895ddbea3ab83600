import assert from 'node:assert/strict';
import { test } from 'node:test';
import { readGoogleError } from './error-body.js';
import { generateContentResponse } from './response.js';

const fallback = { model: 'gemini-2.5-pro', id: 'gen-1' };

test('usage: thoughts count as completion and reasoning tokens, cached tokens as cached prompt tokens', () => {
  const out = generateContentResponse(
    {
      candidates: [{ content: { role: 'model', parts: [{ text: 'ok' }] }, finishReason: 'STOP' }],
      usageMetadata: {
        promptTokenCount: 100,
        candidatesTokenCount: 10,
        thoughtsTokenCount: 30,
        cachedContentTokenCount: 60,
        totalTokenCount: 140,
      },
      modelVersion: 'gemini-2.5-pro-001',
    },
    fallback,
  );
  assert.deepEqual(out?.usage, {
    prompt_tokens: 100,
    completion_tokens: 40,
    total_tokens: 140,
    prompt_tokens_details: { cached_tokens: 60 },
    completion_tokens_details: { reasoning_tokens: 30 },
  });
  assert.equal(out?.model, 'gemini-2.5-pro-001');
});

test('a blocked prompt is a content-filter finish with an empty answer', () => {
  const out = generateContentResponse(
    { promptFeedback: { blockReason: 'PROHIBITED_CONTENT' }, usageMetadata: { promptTokenCount: 8 } },
    fallback,
  );
  assert.equal(out?.choices[0]?.finish_reason, 'content_filter');
  assert.equal(out?.choices[0]?.native_finish_reason, 'PROHIBITED_CONTENT');
  assert.equal(out?.choices[0]?.message.content, '');
});

test('function calls without ids get call_<n>; a signed call keeps its signature by id', () => {
  const out = generateContentResponse(
    {
      candidates: [
        {
          content: {
            parts: [
              { text: 'plan', thought: true },
              { functionCall: { name: 'f', args: { a: 1 } }, thoughtSignature: 'c2ln' },
              { functionCall: { name: 'g' } },
            ],
          },
          finishReason: 'STOP',
        },
      ],
    },
    fallback,
  );
  const message = out?.choices[0]?.message;
  assert.equal(out?.choices[0]?.finish_reason, 'tool_calls');
  assert.deepEqual(
    message?.tool_calls?.map((c) => [c.id, c.function.name, c.function.arguments]),
    [
      ['call_0', 'f', '{"a":1}'],
      ['call_1', 'g', '{}'],
    ],
  );
  assert.equal(message?.reasoning, 'plan');
  assert.deepEqual(message?.reasoning_details?.[1], {
    type: 'reasoning.encrypted',
    data: 'c2ln',
    id: 'call_0',
    format: 'google-gemini-v1',
  });
  assert.equal(message?.content, null);
});

test("Google's error envelope: message and code; a refused API key reads as 401", () => {
  assert.deepEqual(readGoogleError({ error: { code: 429, message: 'Quota exceeded', status: 'RESOURCE_EXHAUSTED' } }), {
    message: 'Quota exceeded',
    code: 'RESOURCE_EXHAUSTED',
  });
  assert.deepEqual(
    readGoogleError([
      {
        error: {
          code: 400,
          message: 'API key not valid.',
          status: 'INVALID_ARGUMENT',
          details: [{ '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: 'API_KEY_INVALID' }],
        },
      },
    ]),
    { message: 'API key not valid.', code: 'API_KEY_INVALID', status: 401 },
  );
  assert.deepEqual(readGoogleError({ type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } }), {
    message: 'Overloaded',
    code: 'overloaded_error',
  });
});
