import { test } from 'node:test';
import assert from 'node:assert/strict';
import { NO_AUTH, xApiKeyAuth } from '../../upstream/index.js';
import type { ProviderEndpointConfig } from '../../wire/adapter.js';
import { readAnthropicError } from '../../wire/anthropic-messages/outbound/error-body.js';
import { ANTHROPIC_VERSION, messagesTarget } from './adapter.js';

const endpoint: ProviderEndpointConfig = {
  providerId: 'anthropic',
  kind: 'anthropic',
  baseUrl: 'https://api.anthropic.test/v1/',
  auth: xApiKeyAuth('sk-ant-test'),
  apiKey: 'sk-ant-test',
  headers: { 'x-extra': '1' },
  timeouts: { connectMs: 1000, firstByteMs: 1000, idleMs: 1000 },
};

test('messagesTarget: URL and headers (never the key) built once per frozen endpoint and kind; never cached for a mutable one', () => {
  const frozen = Object.freeze({ ...endpoint, headers: Object.freeze({ ...endpoint.headers }) });
  const json = messagesTarget(frozen, false);
  assert.equal(messagesTarget(frozen, false), json);
  assert.ok(Object.isFrozen(json.headers));
  assert.deepEqual(json, {
    url: 'https://api.anthropic.test/v1/messages',
    headers: {
      accept: 'application/json',
      'content-type': 'application/json',
      'anthropic-version': ANTHROPIC_VERSION,
      'x-extra': '1',
    },
    readError: readAnthropicError,
  });
  assert.equal(messagesTarget(frozen, true).headers.accept, 'text/event-stream');
  assert.equal(messagesTarget({ ...endpoint, auth: NO_AUTH, apiKey: null }, false).headers['x-api-key'], undefined);
  // The key is the endpoint's auth, asked per request.
  const request = { method: 'POST', url: new URL(json.url), headers: json.headers, body: '{}' };
  assert.deepEqual(endpoint.auth.headersFor(request), { 'x-api-key': 'sk-ant-test' });
  const mutable = { ...endpoint };
  assert.notEqual(messagesTarget(mutable, false), messagesTarget(mutable, false));
});
