import assert from 'node:assert/strict';
import { test } from 'node:test';
import { SignatureV4 } from '@smithy/signature-v4';
import { NodeSha256 } from './node-sha256.js';
import { SigV4Signer, type SigningCredentials } from './sigv4-sign.js';
import type { OutgoingRequest } from './types.js';

// The synchronous signer against Smithy's SignatureV4 (the AWS SDK's own): same date, same
// request, the same headers byte for byte.

const KEYS: SigningCredentials = {
  accessKeyId: 'AKIDEXAMPLE',
  secretAccessKey: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY',
};
const SESSION: SigningCredentials = { ...KEYS, sessionToken: 'FwoGZXIvYXdzEXAMPLE//token==' };
const AT = new Date('2026-11-27T01:02:03.456Z');

async function smithy(
  credentials: SigningCredentials,
  request: OutgoingRequest,
  region: string,
): Promise<Record<string, string>> {
  const signer = new SignatureV4({ service: 'bedrock', region, credentials, sha256: NodeSha256 });
  const { url } = request;
  const query: Record<string, string | string[]> = {};
  for (const [k, v] of url.searchParams) {
    const prev = query[k];
    query[k] = prev === undefined ? v : Array.isArray(prev) ? [...prev, v] : [prev, v];
  }
  const signed = await signer.sign(
    {
      method: request.method,
      protocol: url.protocol,
      hostname: url.hostname,
      port: url.port === '' ? undefined : Number(url.port),
      path: url.pathname,
      query,
      headers: { ...request.headers, host: url.host },
      body: request.body ?? undefined,
    },
    { signingDate: AT },
  );
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(signed.headers)) {
    if (name !== 'host' && !(name in request.headers)) out[name] = String(value);
  }
  return out;
}

const CASES: [string, SigningCredentials, string, OutgoingRequest][] = [
  [
    'Converse, model id with an encoded colon',
    KEYS,
    'us-east-1',
    {
      method: 'POST',
      url: new URL(
        'https://bedrock-runtime.us-east-1.amazonaws.com/model/us.anthropic.claude-sonnet-4-5-20250929-v1%3A0/converse',
      ),
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: '{"messages":[{"role":"user","content":[{"text":"Hi ✓"}]}]}',
    },
  ],
  [
    'raw colon, port, query with repeats and reserved characters, temporary credentials',
    SESSION,
    'us-west-2',
    {
      method: 'POST',
      url: new URL("http://127.0.0.1:8443/model/amazon.nova-pro-v1:0/invoke?b=2&a=1&a=0&x=it's%20(ok)*"),
      headers: { 'content-type': 'application/json', 'user-agent': 'switchyard', 'x-amzn-bedrock-trace': 'ENABLED' },
      body: new Uint8Array(Buffer.from('{"inputText":"hello"}')),
    },
  ],
  [
    'no body, dot segments and a trailing slash, spaces to trim in a header',
    KEYS,
    'ap-northeast-1',
    {
      method: 'GET',
      url: new URL('https://example.amazonaws.com/a/./b/../c//d/'),
      headers: { 'x-custom': '  two   spaces ' },
      body: null,
    },
  ],
  [
    'a caller-declared payload hash is kept',
    KEYS,
    'eu-west-1',
    {
      method: 'POST',
      url: new URL('https://bedrock-runtime.eu-west-1.amazonaws.com/model/m/converse'),
      headers: { 'x-amz-content-sha256': 'UNSIGNED-PAYLOAD' },
      body: 'ignored',
    },
  ],
];

for (const [name, credentials, region, request] of CASES) {
  test(`signs like Smithy: ${name}`, async () => {
    const ours = new SigV4Signer(credentials, { region, service: 'bedrock' }).sign(request, AT);
    assert.deepEqual(ours, await smithy(credentials, request, region));
  });
}

test('the derived key follows the date; another secret gives another signature', () => {
  const request = (CASES[0] as [string, SigningCredentials, string, OutgoingRequest])[3];
  const signer = new SigV4Signer(KEYS, { region: 'us-east-1', service: 'bedrock' });
  const today = signer.sign(request, AT).authorization;
  const tomorrow = signer.sign(request, new Date(AT.getTime() + 86_400_000)).authorization;
  assert.notEqual(today, tomorrow);
  assert.equal(signer.sign(request, AT).authorization, today);
  const other = new SigV4Signer({ ...KEYS, secretAccessKey: 'another' }, { region: 'us-east-1', service: 'bedrock' });
  assert.notEqual(other.sign(request, AT).authorization, today);
});
