import assert from 'node:assert/strict';
import { createSign } from 'node:crypto';
import { after, before, test } from 'node:test';
import { ClientSecretCredential } from '@azure/identity';
import { Compute, JWT } from 'google-auth-library';
import { AZURE_TEST, GOOGLE_TEST, testServiceAccountKey } from './credentials.js';
import { entraTestTransport } from './entra-transport.js';
import { COGNITIVE_AUDIENCE, startFakeEntra, type FakeEntra } from './entra.js';
import { GOOGLE_CLOUD_AUDIENCE, startFakeGoogleOAuth, type FakeGoogleOAuth } from './google-oauth.js';

// The fake token endpoints proven faithful: google-auth-library signs its service-account JWT and
// reads the metadata server's token from the fake Google endpoint; @azure/identity (MSAL) runs its
// client-credentials flow against the fake Entra endpoint.

let google: FakeGoogleOAuth;
let entra: FakeEntra;
before(async () => {
  google = await startFakeGoogleOAuth();
  entra = await startFakeEntra();
});
after(async () => {
  await google.close();
  await entra.close();
});

/** Sends google-auth-library's fixed token URL (this version ignores `token_uri`) to the fake instead. */
function toFake(client: JWT, tokenUri: string): JWT {
  client.transporter.interceptors.request.add({
    resolved: async (options) => {
      if (String(options.url).startsWith('https://oauth2.googleapis.com/token')) options.url = new URL(tokenUri);
      return options;
    },
  });
  return client;
}

test('google-auth-library: a service account JWT (RS256) is exchanged for a token the fake ledger accepts', async () => {
  const jwt = toFake(
    new JWT({
      email: GOOGLE_TEST.clientEmail,
      key: testServiceAccountKey().privateKeyPem,
      scopes: ['https://www.googleapis.com/auth/cloud-platform'],
    }),
    google.tokenUri,
  );
  const { token } = await jwt.getAccessToken();
  assert.ok(token?.startsWith('ya29.fake-'));
  assert.equal(google.ledger.isValid(token ?? null, GOOGLE_CLOUD_AUDIENCE), true);
});

test('a JWT signed by another key, for another audience, or expired is refused with invalid_grant', async () => {
  const now = Math.floor(Date.now() / 1000);
  const assertion = (claims: Record<string, unknown>, key = testServiceAccountKey().privateKeyPem): string => {
    const enc = (v: unknown): string => Buffer.from(JSON.stringify(v)).toString('base64url');
    const unsigned = `${enc({ alg: 'RS256', typ: 'JWT' })}.${enc(claims)}`;
    return `${unsigned}.${createSign('RSA-SHA256').update(unsigned).sign(key).toString('base64url')}`;
  };
  const good = { iss: GOOGLE_TEST.clientEmail, scope: 'x', aud: google.tokenUri, iat: now, exp: now + 3600 };
  const post = async (a: string): Promise<{ status: number; body: { error?: string; access_token?: string } }> => {
    const res = await fetch(google.tokenUri, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer', assertion: a }),
    });
    return { status: res.status, body: (await res.json()) as { error?: string } };
  };
  assert.equal((await post(assertion(good))).status, 200);
  const { generateKeyPairSync } = await import('node:crypto');
  const other = generateKeyPairSync('rsa', { modulusLength: 2048 })
    .privateKey.export({ type: 'pkcs8', format: 'pem' })
    .toString();
  for (const bad of [
    assertion(good, other),
    assertion({ ...good, aud: 'https://elsewhere.test/token' }),
    assertion({ ...good, iat: now - 7200, exp: now - 3600 }),
  ]) {
    const answer = await post(bad);
    assert.equal(answer.status, 400);
    assert.equal(answer.body.error, 'invalid_grant');
  }
});

test('google-auth-library Compute: the metadata server token (GCE_METADATA_HOST at the fake)', async () => {
  const previous = process.env.GCE_METADATA_HOST;
  process.env.GCE_METADATA_HOST = google.metadataHost;
  try {
    const { token } = await new Compute().getAccessToken();
    assert.equal(google.ledger.isValid(token ?? null, GOOGLE_CLOUD_AUDIENCE), true);
  } finally {
    if (previous === undefined) delete process.env.GCE_METADATA_HOST;
    else process.env.GCE_METADATA_HOST = previous;
  }
  const noFlavor = await fetch(`${google.url}/computeMetadata/v1/instance/service-accounts/default/token`);
  assert.equal(noFlavor.status, 403);
});

function credential(secret: string = AZURE_TEST.clientSecret): ClientSecretCredential {
  return new ClientSecretCredential(AZURE_TEST.tenantId, AZURE_TEST.clientId, secret, {
    authorityHost: AZURE_TEST.authorityHost,
    httpClient: entraTestTransport(entra.url),
    disableInstanceDiscovery: true,
  });
}

test('@azure/identity ClientSecretCredential gets a Cognitive Services token from the fake Entra endpoint', async () => {
  const token = await credential().getToken(AZURE_TEST.scope);
  assert.equal(entra.ledger.isValid(token.token, COGNITIVE_AUDIENCE), true);
  assert.ok(token.expiresOnTimestamp > Date.now());
});

test('a wrong client secret is refused with AADSTS7000215 and the secret appears nowhere in the error', async () => {
  const secret = 'wrong~secret~value~0042';
  await assert.rejects(credential(secret).getToken(AZURE_TEST.scope), (e: Error) => {
    assert.match(e.message, /7000215/);
    assert.equal(e.message.includes(secret), false);
    return true;
  });
});
