import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ProviderEndpointConfig } from '../types.js';
import { ANTHROPIC_VERSION, messagesTarget } from './adapter.js';

const endpoint: ProviderEndpointConfig = {
  providerId: 'anthropic',
  kind: 'anthropic',
  baseUrl: 'https://api.anthropic.test/v1/',
  apiKey: 'sk-ant-test',
  headers: { 'x-extra': '1' },
  timeouts: { connectMs: 1000, firstByteMs: 1000, idleMs: 1000 },
};

test('messagesTarget: URL and headers built once per frozen endpoint and kind; never cached for a mutable one', () => {
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
      'x-api-key': 'sk-ant-test',
      'x-extra': '1',
    },
  });
  assert.equal(messagesTarget(frozen, true).headers.accept, 'text/event-stream');
  assert.equal(messagesTarget({ ...endpoint, apiKey: null }, false).headers['x-api-key'], undefined);
  const mutable = { ...endpoint };
  assert.notEqual(messagesTarget(mutable, false), messagesTarget(mutable, false));
});
