/**
 * Per-call cost of the upstream credential headers, in one run: a static header (`api-key`,
 * `x-goog-api-key`, a Bedrock API key), a held bearer token (Google, Entra: the cache hit of
 * every call between refreshes), and SigV4 signing of a Bedrock Converse request (credentials
 * held; the signature hashes the body, so two body sizes), by the gateway's synchronous signer
 * and, for reference, by Smithy's promise-based SignatureV4 (the AWS SDK's). No network:
 * credentials are fetched once before timing. Prints median µs per call over several rounds.
 *   npx tsc -p tsconfig.json && node dist/bench/cloud-auth-bench.js [--rounds 9] [--calls 20000]
 */
import { createHash } from 'node:crypto';
import { SignatureV4 } from '@smithy/signature-v4';
import { NodeSha256 } from '../src/upstream/auth/node-sha256.js';
import { staticHeaderAuth } from '../src/upstream/auth/static-header.js';
import { sigV4Auth } from '../src/upstream/auth/sigv4.js';
import { tokenSourceAuth } from '../src/upstream/auth/token-source.js';
import type { OutgoingRequest, UpstreamAuth } from '../src/upstream/auth/types.js';

function flag(name: string, fallback: number): number {
  const at = process.argv.indexOf(`--${name}`);
  const value = at < 0 ? NaN : Number(process.argv[at + 1]);
  return Number.isFinite(value) && value > 0 ? value : fallback;
}

const ROUNDS = flag('rounds', 9);
const CALLS = flag('calls', 20_000);

function converseRequest(bodyBytes: number): OutgoingRequest {
  const text = 'The quick brown fox jumps over the lazy dog. '.repeat(Math.ceil(bodyBytes / 45)).slice(0, bodyBytes);
  return {
    method: 'POST',
    url: new URL(
      'https://bedrock-runtime.us-east-1.amazonaws.com/model/us.anthropic.claude-sonnet-4-5-20250929-v1%3A0/converse',
    ),
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify({ messages: [{ role: 'user', content: [{ text }] }], inferenceConfig: { maxTokens: 512 } }),
  };
}

async function perCallMicros(auth: UpstreamAuth, request: OutgoingRequest, calls: number): Promise<number> {
  const rounds: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const started = process.hrtime.bigint();
    for (let i = 0; i < calls; i++) {
      const headers = auth.headersFor(request);
      if (headers instanceof Promise) await headers;
    }
    rounds.push(Number(process.hrtime.bigint() - started) / 1000 / calls);
  }
  rounds.sort((a, b) => a - b);
  return rounds[Math.floor(rounds.length / 2)] ?? NaN;
}

async function main(): Promise<void> {
  const small = converseRequest(2 * 1024);
  const large = converseRequest(100 * 1024);
  const staticKey = staticHeaderAuth('api-key', 'bench-static-key-0123456789');
  const token = tokenSourceAuth({
    providerId: 'bench',
    issuer: 'bench',
    fetch: async () => ({ value: 'bench-token-0123456789', expiresAtMs: Date.now() + 3_600_000 }),
  });
  const sigv4 = sigV4Auth({
    providerId: 'bench',
    region: 'us-east-1',
    credentials: async () => ({
      accessKeyId: 'AKIABENCH00000000001',
      secretAccessKey: 'bench/secret/key/0000000000000000000001',
    }),
  });
  await token.headersFor(small);
  await sigv4.headersFor(small);
  const sigCalls = Math.max(1, Math.floor(CALLS / 10));
  /** The floor of any signature: hashing the body once (SigV4 hashes it, then a few short strings). */
  const hashOnly: UpstreamAuth = {
    headersFor: (request) => ({
      'x-amz-content-sha256': createHash('sha256')
        .update(request.body ?? '')
        .digest('hex'),
    }),
  };
  const smithy = new SignatureV4({
    service: 'bedrock',
    region: 'us-east-1',
    credentials: { accessKeyId: 'AKIABENCH00000000001', secretAccessKey: 'bench/secret/key/0000000000000000000001' },
    sha256: NodeSha256,
  });
  const smithyAuth: UpstreamAuth = {
    headersFor: async (request) => {
      const { url } = request;
      const signed = await smithy.sign({
        method: request.method,
        protocol: url.protocol,
        hostname: url.hostname,
        path: url.pathname,
        headers: { ...request.headers, host: url.host },
        body: request.body ?? undefined,
      });
      return { authorization: String(signed.headers.authorization) };
    },
  };
  const rows: [string, number][] = [
    ['static header (api-key)', await perCallMicros(staticKey, small, CALLS)],
    ['held bearer token (Google/Entra)', await perCallMicros(token, small, CALLS)],
    ['SHA-256 of the 2 KB body alone (floor)', await perCallMicros(hashOnly, small, CALLS)],
    ['SigV4, 2 KB body', await perCallMicros(sigv4, small, sigCalls)],
    ["SigV4 by Smithy's SignatureV4 (reference), 2 KB body", await perCallMicros(smithyAuth, small, sigCalls)],
    ['SigV4, 100 KB body', await perCallMicros(sigv4, large, Math.max(1, Math.floor(sigCalls / 10)))],
    [
      "SigV4 by Smithy's SignatureV4 (reference), 100 KB body",
      await perCallMicros(smithyAuth, large, Math.max(1, Math.floor(sigCalls / 10))),
    ],
  ];
  token.close?.();
  sigv4.close?.();
  console.log(`cloud auth headers: median of ${ROUNDS} rounds, µs per call (node ${process.version})`);
  console.log('| credential | µs per call |');
  console.log('|---|---|');
  for (const [name, micros] of rows) console.log(`| ${name} | ${micros.toFixed(2)} |`);
}

await main();
