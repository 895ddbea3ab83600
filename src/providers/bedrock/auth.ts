import { staticAuth, type UpstreamAuth } from '../../upstream/auth/index.js';
import { sigV4Auth } from '../../upstream/auth/sigv4.js';

export interface BedrockAuthOptions {
  providerId: string;
  region: string;
  profile: string | null;
  /** A Bedrock API key: sent as a bearer token, no signing. */
  apiKey: string | null;
}

/**
 * The credential of a Bedrock endpoint: its API key as a bearer token when one is configured,
 * else a SigV4 signature (service `bedrock`) with credentials from the AWS default chain or the
 * named profile. Credential resolution starts now, in the background, and renews before expiry.
 */
export function bedrockAuth(options: BedrockAuthOptions): UpstreamAuth {
  if (options.apiKey !== null) return staticAuth('sigv4', options.apiKey);
  const auth = sigV4Auth({
    providerId: options.providerId,
    region: options.region,
    service: 'bedrock',
    ...(options.profile === null ? {} : { profile: options.profile }),
  });
  auth.start?.();
  return auth;
}
