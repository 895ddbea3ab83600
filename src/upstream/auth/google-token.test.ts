import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, test } from 'node:test';
import { Compute, GoogleAuth } from 'google-auth-library';
import {
  GOOGLE_TEST,
  serviceAccountJson,
  testServiceAccountKey,
  writeServiceAccountFile,
} from '../../../test/fake-clouds/credentials.js';
import {
  GOOGLE_CLOUD_AUDIENCE,
  startFakeGoogleOAuth,
  type FakeGoogleOAuth,
} from '../../../test/fake-clouds/google-oauth.js';
import { startFakeVertex, type FakeVertex } from '../../../test/fake-clouds/vertex.js';
import { isUpstreamError } from '../upstream-error.js';
import { googleTokenAuth } from './google-token.js';
import { waitFor } from '../../../test/fake-clouds/wait.js';
import type { OutgoingRequest, UpstreamAuth } from './types.js';

let oauth: FakeGoogleOAuth;
let vertex: FakeVertex;
let keyFile: string;
const closers: UpstreamAuth[] = [];
before(async () => {
  oauth = await startFakeGoogleOAuth();
  vertex = await startFakeVertex(oauth.ledger);
  keyFile = writeServiceAccountFile(oauth.tokenUri);
});
after(async () => {
  for (const auth of closers) auth.close?.();
  await vertex.close();
  await oauth.close();
});

const REQUEST: OutgoingRequest = { method: 'POST', url: new URL('https://example.test/'), headers: {}, body: null };

function auth(options: Partial<Parameters<typeof googleTokenAuth>[0]> = {}): UpstreamAuth {
  const a = googleTokenAuth({ providerId: 'vertex-test', keyFile, ...options });
  closers.push(a);
  return a;
}

function syncToken(a: UpstreamAuth): string {
  const headers = a.headersFor(REQUEST);
  assert.equal(headers instanceof Promise, false, 'a held token is returned synchronously');
  return (headers as Record<string, string>).authorization ?? '';
}

test('a service-account file is exchanged at its own token_uri; the token opens the fake Vertex; later calls are synchronous', async () => {
  oauth.ledger.expiresInSeconds = 3599;
  const a = auth();
  const first = await a.headersFor(REQUEST);
  const token = first.authorization?.replace('Bearer ', '') ?? '';
  assert.equal(oauth.ledger.isValid(token, GOOGLE_CLOUD_AUDIENCE), true);
  assert.equal(syncToken(a), `Bearer ${token}`);
  const res = await fetch(
    `${vertex.url}/v1/projects/${GOOGLE_TEST.project}/locations/us-central1/publishers/google/models/gemini-2.5-pro:generateContent`,
    {
      method: 'POST',
      headers: first,
      body: JSON.stringify({ contents: [{ role: 'user', parts: [{ text: 'Hi' }] }] }),
    },
  );
  assert.equal(res.status, 200);
});

test('the token is refreshed in the background before it expires, and no call waits for it', async () => {
  oauth.ledger.expiresInSeconds = 6;
  const a = auth();
  a.start?.();
  a.start?.(); // idempotent
  const before = oauth.ledger.grants;
  const first = await a.headersFor(REQUEST);
  await waitFor(() => {
    syncToken(a); // every call meanwhile is served from the held token
    return oauth.ledger.grants > before + 1 && syncToken(a) !== first.authorization;
  }, 'the background refresh');
  const old = first.authorization?.replace('Bearer ', '') ?? '';
  assert.equal(oauth.ledger.isValid(old, GOOGLE_CLOUD_AUDIENCE), true, 'refreshed while the old token was still valid');
});

test('a failed refresh keeps the valid token and is retried', async () => {
  // Refreshed at half the lifetime; the retry a second after the failure leaves time to see the
  // held token kept, and the new one still comes before the old one expires on a slow machine.
  oauth.ledger.expiresInSeconds = 8;
  const a = auth({ retryMs: 1000 });
  const first = (await a.headersFor(REQUEST)).authorization;
  const grants = oauth.ledger.grants;
  oauth.ledger.failNext(1);
  await waitFor(() => oauth.ledger.grants >= grants + 1, 'the failed refresh');
  assert.equal(syncToken(a), first);
  await waitFor(() => syncToken(a) !== first, 'the retried refresh');
});

test('once the token has expired and refreshes keep failing, a call gets a 502 naming the problem, no secret', async () => {
  oauth.ledger.expiresInSeconds = 1;
  const a = auth({ retryMs: 50 });
  await a.headersFor(REQUEST);
  oauth.ledger.failNext(1_000_000);
  await sleep(1100);
  await assert.rejects(Promise.resolve(a.headersFor(REQUEST)), (e: unknown) => {
    assert.ok(isUpstreamError(e));
    assert.equal(e.status, 502);
    assert.match(e.message, /vertex-test: Google token: .*HTTP 500 internal_failure/);
    assert.equal(e.message.includes('PRIVATE KEY'), false);
    return true;
  });
  oauth.ledger.failNext(0);
});

test('a key the token endpoint does not know is refused as invalid_grant, and the error holds no key', async () => {
  const other = generateKeyPairSync('rsa', { modulusLength: 2048 })
    .privateKey.export({ type: 'pkcs8', format: 'pem' })
    .toString();
  const file = writeServiceAccountFile(oauth.tokenUri);
  writeFileSync(file, JSON.stringify({ ...serviceAccountJson(oauth.tokenUri), private_key: other }));
  await assert.rejects(Promise.resolve(auth({ keyFile: file }).headersFor(REQUEST)), (e: Error) => {
    assert.match(e.message, /invalid_grant: Invalid JWT Signature/);
    assert.equal(e.message.includes(other.slice(40, 80)), false);
    assert.equal(e.message.includes(testServiceAccountKey().privateKeyPem.slice(40, 80)), false);
    return true;
  });
  await assert.rejects(
    Promise.resolve(auth({ keyFile: '/nonexistent/sa.json' }).headersFor(REQUEST)),
    /cannot read the credentials file \(ENOENT\)/,
  );
});

test('without a key file: Application Default Credentials, here the metadata server', async () => {
  oauth.ledger.expiresInSeconds = 3599;
  const previous = process.env.GCE_METADATA_HOST;
  process.env.GCE_METADATA_HOST = oauth.metadataHost;
  try {
    const a = auth({ keyFile: null, googleAuth: new GoogleAuth({ authClient: new Compute() }) });
    const token = (await a.headersFor(REQUEST)).authorization?.replace('Bearer ', '') ?? null;
    assert.equal(oauth.ledger.isValid(token, GOOGLE_CLOUD_AUDIENCE), true);
    assert.equal(syncToken(a), `Bearer ${token}`);
  } finally {
    if (previous === undefined) delete process.env.GCE_METADATA_HOST;
    else process.env.GCE_METADATA_HOST = previous;
  }
});
