import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chatBody, endpointUrl, requestHeaders } from './wire-request.js';
import type { ProviderEndpointConfig } from '../types.js';

const endpoint: ProviderEndpointConfig = {
  providerId: 'groq',
  kind: 'openai',
  baseUrl: 'https://api.groq.test/openai/v1/',
  apiKey: 'k',
  headers: { 'HTTP-Referer': 'https://app.test' },
  timeouts: { connectMs: 1, firstByteMs: 1, idleMs: 1 },
};

test('body passes extras through untouched, replaces model, sets stream and include_usage', () => {
  const body = chatBody(
    {
      model: 'llama-3-70b',
      messages: [{ role: 'user', content: 'x' }],
      temperature: 0.2,
      top_k: undefined,
      extra: { logit_bias: { '1': 2 }, vendor_flag: { deep: true }, stream_options: { something: 1 } },
    },
    true,
  );
  assert.equal(body.model, 'llama-3-70b');
  assert.equal(body.stream, true);
  assert.deepEqual(body.vendor_flag, { deep: true });
  assert.deepEqual(body.stream_options, { something: 1, include_usage: true });
  assert.equal('top_k' in body, false, 'undefined fields are not sent');
  assert.equal('extra' in body, false);
  const json = chatBody({ model: 'm', messages: [], extra: { stream_options: { include_usage: true } } }, false);
  assert.equal(json.stream, false);
  assert.equal('stream_options' in json, false);
});

test('url and headers come from config', () => {
  assert.equal(endpointUrl(endpoint, '/chat/completions'), 'https://api.groq.test/openai/v1/chat/completions');
  const headers = requestHeaders(endpoint, true);
  assert.equal(headers.authorization, 'Bearer k');
  assert.equal(headers.accept, 'text/event-stream');
  assert.equal(headers['HTTP-Referer'], 'https://app.test');
  assert.equal(requestHeaders({ ...endpoint, apiKey: null }, false).authorization, undefined);
});
