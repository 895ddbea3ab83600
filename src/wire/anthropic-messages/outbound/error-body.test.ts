import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readOpenAiError } from '../../openai-chat/outbound/error-body.js';
import { readAnthropicError } from './error-body.js';

test('readOpenAiError reads OpenAI, OpenRouter and plain shapes; readAnthropicError the Anthropic shape', () => {
  assert.deepEqual(readOpenAiError({ error: { message: 'm', type: 'invalid_request_error', code: 'bad' } }), {
    message: 'm',
    code: 'bad',
  });
  assert.deepEqual(readOpenAiError({ error: { code: 429, message: 'r', metadata: { provider_code: 'x' } } }), {
    message: 'r',
    code: 'x',
  });
  assert.deepEqual(readOpenAiError({ error: 'plain' }), { message: 'plain', code: null });
  assert.deepEqual(readOpenAiError({ message: 'bare' }), { message: 'bare', code: null });
  assert.deepEqual(readAnthropicError({ type: 'error', error: { type: 'overloaded_error', message: 'o' } }), {
    message: 'o',
    code: 'overloaded_error',
  });
  assert.deepEqual(readAnthropicError({ error: { message: 'proxy', code: 'x' } }), { message: 'proxy', code: 'x' });
  assert.deepEqual(readOpenAiError('nope'), { message: null, code: null });
  assert.deepEqual(readAnthropicError('nope'), { message: null, code: null });
});
