import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { ClientSecretCredential } from '@azure/identity';
import { AZURE_TEST } from '../../../test/fake-clouds/credentials.js';
import { entraTestTransport } from '../../../test/fake-clouds/entra-transport.js';
import { COGNITIVE_AUDIENCE, startFakeEntra, type FakeEntra } from '../../../test/fake-clouds/entra.js';
import { startFakeAzure, type FakeAzure } from '../../../test/fake-clouds/azure.js';
import { isUpstreamError } from '../upstream-error.js';
import { entraTokenAuth } from './entra-token.js';
import { waitFor } from '../../../test/fake-clouds/wait.js';
import type { OutgoingRequest, UpstreamAuth } from './types.js';

let entra: FakeEntra;
let azure: FakeAzure;
const closers: UpstreamAuth[] = [];
before(async () => {
  entra = await startFakeEntra();
  azure = await startFakeAzure({ entra: entra.ledger });
});
after(async () => {
  for (const a of closers) a.close?.();
  await azure.close();
  await entra.close();
});

const REQUEST: OutgoingRequest = { method: 'POST', url: new URL('https://example.test/'), headers: {}, body: null };

function auth(secret: string = AZURE_TEST.clientSecret, retryMs?: number): UpstreamAuth {
  const credential = new ClientSecretCredential(AZURE_TEST.tenantId, AZURE_TEST.clientId, secret, {
    authorityHost: AZURE_TEST.authorityHost,
    httpClient: entraTestTransport(entra.url),
    disableInstanceDiscovery: true,
  });
  const a = entraTokenAuth({ providerId: 'azure-test', credential, retryMs });
  closers.push(a);
  return a;
}

function syncAuthorization(a: UpstreamAuth): string {
  const headers = a.headersFor(REQUEST);
  assert.equal(headers instanceof Promise, false, 'a held token is returned synchronously');
  return (headers as Record<string, string>).authorization ?? '';
}

test('a client-credentials token for Cognitive Services opens the fake Azure OpenAI; later calls are synchronous', async () => {
  entra.ledger.expiresInSeconds = 3599;
  const a = auth();
  const headers = await a.headersFor(REQUEST);
  assert.equal(entra.ledger.isValid(headers.authorization?.replace('Bearer ', '') ?? null, COGNITIVE_AUDIENCE), true);
  assert.equal(syncAuthorization(a), headers.authorization);
  const res = await fetch(`${azure.url}/openai/deployments/gpt4o/chat/completions?api-version=2024-10-21`, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json' },
    body: JSON.stringify({ messages: [{ role: 'user', content: 'Hi' }] }),
  });
  assert.equal(res.status, 200);
});

test('refreshed in the background before expiry; a failed refresh keeps the held token', async () => {
  // Refreshed at half the lifetime; the retry a second after the failure leaves time to see the
  // held token kept, and the new one still comes before the old one expires on a slow machine.
  entra.ledger.expiresInSeconds = 8;
  const a = auth(AZURE_TEST.clientSecret, 1000);
  a.start?.();
  await waitFor(() => entra.ledger.grants > 0 && !(a.headersFor(REQUEST) instanceof Promise), 'the first token');
  const first = syncAuthorization(a);
  const grants = entra.ledger.grants;
  entra.ledger.failNext(1);
  await waitFor(() => entra.ledger.grants >= grants + 1, 'the failed refresh');
  assert.equal(syncAuthorization(a), first);
  await waitFor(() => syncAuthorization(a) !== first, 'the retried refresh');
  assert.equal(
    entra.ledger.isValid(first.replace('Bearer ', ''), COGNITIVE_AUDIENCE),
    true,
    'renewed before the old token expired',
  );
});

test('a wrong client secret: a 502 naming Entra and the AADSTS code, never the secret', async () => {
  const secret = 'a~wrong~client~secret~77';
  await assert.rejects(Promise.resolve(auth(secret).headersFor(REQUEST)), (e: unknown) => {
    assert.ok(isUpstreamError(e));
    assert.equal(e.status, 502);
    assert.match(e.message, /azure-test: Microsoft Entra ID token: .*7000215/);
    assert.equal(e.message.includes(secret), false);
    return true;
  });
});
