import assert from 'node:assert/strict';
import { test } from 'node:test';
import { NO_AUTH } from '../../upstream/auth/index.js';
import type { ProviderEndpointConfig } from '../../wire/adapter.js';
import { AZURE_ROUTING, azureUrl } from './target.js';

function endpoint(apiVersion: string, baseUrl = 'https://contoso.openai.azure.com/'): ProviderEndpointConfig {
  return Object.freeze({
    providerId: 'azure',
    kind: 'azure',
    baseUrl,
    auth: NO_AUTH,
    apiKey: null,
    timeouts: { connectMs: 1, firstByteMs: 1, idleMs: 1 },
    azure: { apiVersion, auth: 'api_key' as const },
  });
}

test('a dated API version addresses the deployment in the path, escaped, with api-version', () => {
  const e = endpoint('2024-10-21');
  assert.equal(
    azureUrl(e, '/chat/completions', 'gpt-4o'),
    'https://contoso.openai.azure.com/openai/deployments/gpt-4o/chat/completions?api-version=2024-10-21',
  );
  assert.equal(
    azureUrl(e, '/embeddings', 'my deployment/x'),
    'https://contoso.openai.azure.com/openai/deployments/my%20deployment%2Fx/embeddings?api-version=2024-10-21',
  );
  const a = AZURE_ROUTING.target(e, '/chat/completions', false, 'a');
  const b = AZURE_ROUTING.target(e, '/chat/completions', false, 'b');
  assert.notEqual(a.url, b.url, 'one cached target per deployment');
  assert.equal(AZURE_ROUTING.target(e, '/chat/completions', false, 'a'), a);
});

test('v1: one URL for every deployment (the model is in the body)', () => {
  const e = endpoint('v1', 'https://contoso.openai.azure.com');
  assert.equal(
    azureUrl(e, '/chat/completions', 'gpt-4o'),
    'https://contoso.openai.azure.com/openai/v1/chat/completions',
  );
  assert.equal(
    AZURE_ROUTING.target(e, '/embeddings', false, 'x').url,
    'https://contoso.openai.azure.com/openai/v1/embeddings',
  );
});

test('the chat body loses the fields Azure does not define, keeps the rest', () => {
  const body = AZURE_ROUTING.chatBody?.({
    model: 'gpt-4o',
    messages: [],
    web_search_options: {},
    prompt_cache_retention: '24h',
    temperature: 0.2,
  });
  assert.deepEqual(body, { model: 'gpt-4o', messages: [], temperature: 0.2 });
});
