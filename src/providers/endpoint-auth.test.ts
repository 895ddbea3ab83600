import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { CatalogProvider } from '../catalog/index.js';
import { endpointAuth } from './endpoint-auth.js';

function provider(over: Partial<CatalogProvider>): CatalogProvider {
  return {
    id: 'p',
    name: 'p',
    kind: 'bedrock',
    baseUrl: 'https://bedrock-runtime.us-east-1.amazonaws.com',
    headers: {},
    zdr: false,
    dataCollection: 'allow',
    timeouts: { connectMs: null, firstByteMs: null, idleMs: null },
    available: true,
    unavailableReason: null,
    privacyPolicyUrl: null,
    termsOfServiceUrl: null,
    statusPageUrl: null,
    headquarters: null,
    datacenters: null,
    getApiKey: () => null,
    azure: null,
    google: null,
    nativeDialects: [],
    bedrock: { region: 'us-east-1', profile: 'missing-profile-for-this-test' },
    ...over,
  };
}

test('a reloaded, unchanged Bedrock provider keeps its signer; a changed one gets its own', () => {
  const first = endpointAuth(provider({}), null);
  assert.equal(endpointAuth(provider({}), null), first, 'a new provider object of the same config');
  const other = endpointAuth(
    provider({ bedrock: { region: 'eu-west-1', profile: 'missing-profile-for-this-test' } }),
    null,
  );
  assert.notEqual(other, first);
  first.close?.();
  other.close?.();
});

test('a Bedrock API key is a bearer token; other kinds keep their static header', async () => {
  const bearer = endpointAuth(provider({}), 'ABSK-test-key');
  const url = new URL('https://x.test/');
  assert.deepEqual(await bearer.headersFor({ method: 'POST', url, headers: {}, body: null }), {
    authorization: 'Bearer ABSK-test-key',
  });
  const anthropic = endpointAuth(provider({ kind: 'anthropic' }), 'sk-ant-test');
  assert.deepEqual(await anthropic.headersFor({ method: 'POST', url, headers: {}, body: null }), {
    'x-api-key': 'sk-ant-test',
  });
});
