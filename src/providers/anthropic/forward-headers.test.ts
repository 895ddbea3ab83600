import assert from 'node:assert/strict';
import { it } from 'node:test';
import { readAnthropicError } from '../../wire/anthropic-messages/outbound/error-body.js';
import { withForwardedHeaders } from './forward-headers.js';

const target = {
  url: 'https://api.anthropic.test/v1/messages',
  headers: { 'anthropic-version': '2023-06-01', 'anthropic-beta': 'files-api-2025-04-14' },
  readError: readAnthropicError,
};

it('adds the client’s betas to the endpoint’s (each once) and takes its version', () => {
  const out = withForwardedHeaders(target, {
    'anthropic-version': '2024-01-01',
    'anthropic-beta': 'context-management-2025-06-27, files-api-2025-04-14',
  });
  assert.equal(out.headers['anthropic-version'], '2024-01-01');
  assert.equal(out.headers['anthropic-beta'], 'files-api-2025-04-14,context-management-2025-06-27');
  assert.equal(target.headers['anthropic-beta'], 'files-api-2025-04-14', 'the cached target is not changed');
});

it('without forwarded headers the target is used as is', () => {
  assert.equal(withForwardedHeaders(target, {}), target);
  assert.equal(withForwardedHeaders(target, undefined), target);
});
