import { fromNodeProviderChain } from '@aws-sdk/credential-providers';
import { SignatureV4 } from '@smithy/signature-v4';
import { CredentialCache } from './credential-cache.js';
import { credentialError, describe } from './credential-error.js';
import { NodeSha256 } from './node-sha256.js';
import type { OutgoingRequest, UpstreamAuth } from './types.js';

export interface AwsCredentials {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken?: string;
  expiration?: Date;
}

export interface SigV4Options {
  providerId: string;
  region: string;
  /** The signing name; Bedrock Runtime's is `bedrock`. */
  service?: string;
  /** A named profile of the shared config/credentials files (else the default chain decides). */
  profile?: string;
  /** Where credentials come from; default the AWS SDK's Node default chain (env, shared files, web identity, ECS, EC2). */
  credentials?: () => Promise<AwsCredentials>;
  refreshBeforeMs?: number;
  retryMs?: number;
}

/** A Smithy signer and the credentials it was built for (the signer caches derived keys per credential). */
interface Signer {
  credentials: AwsCredentials;
  signer: SignatureV4;
}

/**
 * Signs every request with AWS Signature Version 4 (Smithy's signer, service `bedrock`). The
 * credentials are resolved off the request path and renewed in the background before they
 * expire; signing itself is a hash computation with no I/O (Smithy's signer is promise-based,
 * so `headersFor` returns a promise that settles without waiting on anything external).
 */
export function sigV4Auth(options: SigV4Options): UpstreamAuth {
  const service = options.service ?? 'bedrock';
  const provider =
    options.credentials ?? fromNodeProviderChain(options.profile === undefined ? {} : { profile: options.profile });
  let secret: string | null = null;
  const cache = new CredentialCache<Signer>({
    fetch: async () => {
      const credentials = await provider();
      secret = credentials.secretAccessKey;
      const signer = new SignatureV4({ service, region: options.region, credentials, sha256: NodeSha256 });
      return { value: { credentials, signer }, expiresAtMs: credentials.expiration?.getTime() ?? null };
    },
    failure: (error) =>
      credentialError({
        providerId: options.providerId,
        problem: `AWS credentials: ${describe(error)}`,
        secrets: [secret],
      }),
    refreshBeforeMs: options.refreshBeforeMs,
    retryMs: options.retryMs,
  });
  return {
    headersFor: async (request) => {
      const held = cache.get();
      return sign(held instanceof Promise ? await held : held, request);
    },
    start: () => cache.start(),
    close: () => cache.close(),
  };
}

async function sign({ signer }: Signer, request: OutgoingRequest): Promise<Record<string, string>> {
  const { url } = request;
  const query: Record<string, string | string[]> = {};
  for (const [key, value] of url.searchParams) {
    const prev = query[key];
    query[key] = prev === undefined ? value : Array.isArray(prev) ? [...prev, value] : [prev, value];
  }
  const signed = await signer.sign({
    method: request.method,
    protocol: url.protocol,
    hostname: url.hostname,
    port: url.port === '' ? undefined : Number(url.port),
    path: url.pathname,
    query,
    headers: { ...request.headers, host: url.host },
    body: request.body ?? undefined,
  });
  const added: Record<string, string> = {};
  for (const [name, value] of Object.entries(signed.headers)) {
    const lower = name.toLowerCase();
    if (lower !== 'host' && !(lower in request.headers)) added[lower] = String(value);
  }
  return added;
}
