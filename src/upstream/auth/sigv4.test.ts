import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { startFakeBedrock, type FakeBedrock } from '../../../test/fake-clouds/bedrock.js';
import { AWS_TEST } from '../../../test/fake-clouds/credentials.js';
import { isUpstreamError } from '../upstream-error.js';
import { sigV4Auth, type AwsCredentials } from './sigv4.js';
import { waitFor } from '../../../test/fake-clouds/wait.js';
import type { UpstreamAuth } from './types.js';

let fake: FakeBedrock;
const closers: UpstreamAuth[] = [];
before(async () => {
  fake = await startFakeBedrock({
    keys: [
      { accessKeyId: AWS_TEST.accessKeyId, secretAccessKey: AWS_TEST.secretAccessKey },
      {
        accessKeyId: 'ASIAFAKESESSION00001',
        secretAccessKey: 'session/secret/0001',
        sessionToken: 'FwoGZXIvYXdzEFAKESESSIONTOKEN',
      },
    ],
  });
});
after(async () => {
  for (const a of closers) a.close?.();
  await fake.close();
});

const STATIC = async (): Promise<AwsCredentials> => ({
  accessKeyId: AWS_TEST.accessKeyId,
  secretAccessKey: AWS_TEST.secretAccessKey,
});

function signer(
  credentials: () => Promise<AwsCredentials> = STATIC,
  extra: Partial<Parameters<typeof sigV4Auth>[0]> = {},
): UpstreamAuth {
  const a = sigV4Auth({ providerId: 'bedrock-test', region: AWS_TEST.region, credentials, ...extra });
  closers.push(a);
  return a;
}

/** A Converse call to the fake, signed by `auth`; the fake recomputes the signature with Smithy. */
async function converse(auth: UpstreamAuth, path = '/model/amazon.nova-pro-v1:0/converse'): Promise<Response> {
  const url = new URL(fake.url + path);
  const body = JSON.stringify({ messages: [{ role: 'user', content: [{ text: 'Hi' }] }] });
  const headers = { 'content-type': 'application/json', accept: 'application/json' };
  const credentials = await auth.headersFor({ method: 'POST', url, headers, body });
  return fetch(url, { method: 'POST', headers: { ...headers, ...credentials }, body });
}

test('requests signed with SigV4 (service bedrock) pass the fake Bedrock, model ids with : raw or encoded', async () => {
  const auth = signer();
  const res = await converse(auth);
  assert.equal(res.status, 200, await res.clone().text());
  assert.equal(((await res.json()) as { stopReason: string }).stopReason, 'end_turn');
  const headers = await auth.headersFor({ method: 'POST', url: new URL(fake.url + '/x'), headers: {}, body: '{}' });
  assert.match(
    headers.authorization ?? '',
    /^AWS4-HMAC-SHA256 Credential=AKIAFAKECLOUDTEST001\/\d{8}\/us-east-1\/bedrock\/aws4_request/,
  );
  assert.ok(headers['x-amz-date']);
  const held = auth.headersFor({ method: 'POST', url: new URL(fake.url + '/x'), headers: {}, body: '{}' });
  assert.equal(held instanceof Promise, false, 'signing with held credentials is synchronous');
  assert.equal((await converse(auth, '/model/us.anthropic.claude-sonnet-4-5-20250929-v1%3A0/converse')).status, 200);
});

test('a wrong secret, or another region, is refused by the fake with InvalidSignatureException', async () => {
  const wrong = await converse(
    signer(async () => ({ accessKeyId: AWS_TEST.accessKeyId, secretAccessKey: 'not-the-secret' })),
  );
  assert.equal(wrong.status, 403);
  assert.match(wrong.headers.get('x-amzn-errortype') ?? '', /^InvalidSignatureException/);
  const region = await converse(signer(STATIC, { region: 'eu-central-1' }));
  assert.equal(region.status, 403);
});

test('the signature covers the body: a body changed after signing is refused', async () => {
  const auth = signer();
  const url = new URL(fake.url + '/model/amazon.nova-pro-v1:0/converse');
  const signed = JSON.stringify({ messages: [{ role: 'user', content: [{ text: 'Hi' }] }] });
  const sent = JSON.stringify({ messages: [{ role: 'user', content: [{ text: 'Ho' }] }] });
  const headers = { 'content-type': 'application/json' };
  const credentials = await auth.headersFor({ method: 'POST', url, headers, body: signed });
  const res = await fetch(url, { method: 'POST', headers: { ...headers, ...credentials }, body: sent });
  assert.ok(res.status === 400 || res.status === 403, `refused, got ${res.status}`);
  const { 'x-amz-content-sha256': _hash, ...withoutHash } = credentials;
  const bare = await fetch(url, { method: 'POST', headers: { ...headers, ...withoutHash }, body: sent });
  assert.equal(bare.status, 403);
  assert.match(bare.headers.get('x-amzn-errortype') ?? '', /^InvalidSignatureException/);
});

test('temporary credentials carry their session token; a named profile of the shared files is used', async () => {
  const session = signer(async () => ({
    accessKeyId: 'ASIAFAKESESSION00001',
    secretAccessKey: 'session/secret/0001',
    sessionToken: 'FwoGZXIvYXdzEFAKESESSIONTOKEN',
  }));
  assert.equal((await converse(session)).status, 200);
  assert.equal(fake.requests.at(-1)?.headers['x-amz-security-token'], 'FwoGZXIvYXdzEFAKESESSIONTOKEN');
  const dir = mkdtempSync(join(tmpdir(), 'aws-profile-'));
  writeFileSync(
    join(dir, 'credentials'),
    `[switchyard-test]\naws_access_key_id = ${AWS_TEST.accessKeyId}\naws_secret_access_key = ${AWS_TEST.secretAccessKey}\n`,
  );
  writeFileSync(join(dir, 'config'), '');
  const saved = { c: process.env.AWS_SHARED_CREDENTIALS_FILE, f: process.env.AWS_CONFIG_FILE };
  process.env.AWS_SHARED_CREDENTIALS_FILE = join(dir, 'credentials');
  process.env.AWS_CONFIG_FILE = join(dir, 'config');
  try {
    const profile = sigV4Auth({ providerId: 'bedrock-test', region: AWS_TEST.region, profile: 'switchyard-test' });
    closers.push(profile);
    assert.equal((await converse(profile)).status, 200);
  } finally {
    for (const [name, value] of [
      ['AWS_SHARED_CREDENTIALS_FILE', saved.c],
      ['AWS_CONFIG_FILE', saved.f],
    ] as const) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
    rmSync(dir, { recursive: true, force: true });
  }
});

test('expiring credentials are renewed in the background before expiry; a failed renewal keeps the held ones', async () => {
  let calls = 0;
  let failNext = false;
  const provider = async (): Promise<AwsCredentials> => {
    calls++;
    if (failNext) {
      failNext = false;
      throw new Error('ECS credentials endpoint unavailable');
    }
    return {
      accessKeyId: AWS_TEST.accessKeyId,
      secretAccessKey: AWS_TEST.secretAccessKey,
      expiration: new Date(Date.now() + 6000),
    };
  };
  const auth = signer(provider, { retryMs: 100 });
  auth.start?.();
  await waitFor(() => calls === 1, 'the first credentials');
  assert.equal((await converse(auth)).status, 200);
  failNext = true;
  await waitFor(() => calls >= 2, 'the failed renewal');
  assert.equal((await converse(auth)).status, 200, 'the held credentials still sign');
  await waitFor(() => calls >= 3, 'the retried renewal');
  assert.equal((await converse(auth)).status, 200);
});

test('no credentials: a 502 naming the AWS credential problem, never the secret', async () => {
  const none = signer(async () => {
    throw new Error('Could not load credentials from any providers');
  });
  await assert.rejects(
    Promise.resolve(none.headersFor({ method: 'POST', url: new URL(fake.url), headers: {}, body: null })),
    (e: unknown) => {
      assert.ok(isUpstreamError(e));
      assert.equal(e.status, 502);
      assert.match(e.message, /bedrock-test: AWS credentials: Could not load credentials/);
      return true;
    },
  );
  // A provider whose failure echoes the secret it held: the message is scrubbed.
  let calls = 0;
  const echoing = signer(
    async () => {
      if (calls++ === 0)
        return {
          accessKeyId: AWS_TEST.accessKeyId,
          secretAccessKey: AWS_TEST.secretAccessKey,
          expiration: new Date(Date.now() + 300),
        };
      throw new Error(`refresh refused for ${AWS_TEST.secretAccessKey}`);
    },
    { retryMs: 20 },
  );
  await echoing.headersFor({ method: 'POST', url: new URL(fake.url), headers: {}, body: null });
  await waitFor(() => calls >= 2, 'the failed renewal');
  await new Promise((resolve) => setTimeout(resolve, 350));
  await assert.rejects(
    Promise.resolve(echoing.headersFor({ method: 'POST', url: new URL(fake.url), headers: {}, body: null })),
    (e: Error) => {
      assert.match(e.message, /refresh refused for \*\*\*/);
      assert.equal(e.message.includes(AWS_TEST.secretAccessKey), false);
      return true;
    },
  );
});
