import { CredentialCache } from './credential-cache.js';
import { credentialError, describe } from './credential-error.js';
import { SigV4Signer } from './sigv4-sign.js';
import type { UpstreamAuth } from './types.js';

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

/**
 * Signs every request with AWS Signature Version 4 (service `bedrock`). The credentials are
 * resolved off the request path (the AWS SDK's default chain or a named profile) and renewed in
 * the background before they expire; signing is then a synchronous hash computation, so
 * `headersFor` answers synchronously whenever credentials are held.
 */
export function sigV4Auth(options: SigV4Options): UpstreamAuth {
  const scope = { region: options.region, service: options.service ?? 'bedrock' };
  // A named profile is read from the shared config and credentials files (keys, assumed roles, SSO,
  // credential_process); without one, the default chain decides.
  let provider = options.credentials ?? null;
  let secret: string | null = null;
  const cache = new CredentialCache<SigV4Signer>({
    fetch: async () => {
      provider ??= await defaultProvider(options.profile);
      const credentials = await provider();
      secret = credentials.secretAccessKey;
      return { value: new SigV4Signer(credentials, scope), expiresAtMs: credentials.expiration?.getTime() ?? null };
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
    headersFor: (request) => {
      const signer = cache.get();
      return signer instanceof SigV4Signer ? signer.sign(request) : signer.then((s) => s.sign(request));
    },
    start: () => cache.start(),
    close: () => cache.close(),
  };
}

/** The AWS SDK's chain, loaded on first use: most deployments never ask AWS for credentials. */
async function defaultProvider(profile: string | undefined): Promise<() => Promise<AwsCredentials>> {
  const { fromIni, fromNodeProviderChain } = await import('@aws-sdk/credential-providers');
  return profile === undefined ? fromNodeProviderChain() : fromIni({ profile });
}
