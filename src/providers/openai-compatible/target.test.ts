import { test } from 'node:test';
import assert from 'node:assert/strict';
import { bearerAuth } from '../../upstream/index.js';
import type { ProviderEndpointConfig } from '../../wire/adapter.js';
import { readOpenAiError } from '../../wire/openai-chat/outbound/error-body.js';
import { endpointUrl, requestHeaders, wireTarget } from './target.js';

const endpoint: ProviderEndpointConfig = {
  providerId: 'groq',
  kind: 'openai',
  baseUrl: 'https://api.groq.test/openai/v1/',
  auth: bearerAuth('k'),
  apiKey: 'k',
  headers: { 'HTTP-Referer': 'https://app.test' },
  timeouts: { connectMs: 1, firstByteMs: 1, idleMs: 1 },
};

test('url and headers come from config', () => {
  assert.equal(endpointUrl(endpoint, '/chat/completions'), 'https://api.groq.test/openai/v1/chat/completions');
  const headers = requestHeaders(endpoint, true);
  assert.equal(headers.authorization, undefined, 'the key is the endpoint auth, asked per request');
  assert.equal(headers.accept, 'text/event-stream');
  assert.equal(headers['HTTP-Referer'], 'https://app.test');
  const request = { method: 'POST', url: new URL(endpointUrl(endpoint, '/chat/completions')), headers, body: '{}' };
  assert.deepEqual(endpoint.auth.headersFor(request), { authorization: 'Bearer k' });
});

test('wireTarget: built once per frozen endpoint, path and stream; a mutable endpoint is never cached', () => {
  const frozen = Object.freeze({ ...endpoint, headers: Object.freeze({ ...endpoint.headers }) });
  const a = wireTarget(frozen, '/chat/completions', false);
  assert.equal(wireTarget(frozen, '/chat/completions', false), a);
  assert.ok(Object.isFrozen(a.headers));
  assert.deepEqual(a, {
    url: endpointUrl(frozen, '/chat/completions'),
    headers: requestHeaders(frozen, false),
    readError: readOpenAiError,
  });
  const s = wireTarget(frozen, '/chat/completions', true);
  assert.notEqual(s, a);
  assert.equal(s.headers.accept, 'text/event-stream');
  assert.equal(wireTarget(frozen, '/completions', false).url, 'https://api.groq.test/openai/v1/completions');
  const mutable = { ...endpoint };
  assert.notEqual(wireTarget(mutable, '/chat/completions', false), wireTarget(mutable, '/chat/completions', false));
});
