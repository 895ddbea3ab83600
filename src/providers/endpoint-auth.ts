import type { CatalogProvider } from '../catalog/index.js';
import { staticAuth, type UpstreamAuth } from '../upstream/auth/index.js';
import { UPSTREAM_KINDS } from '../wire/index.js';
import { bedrockAuth } from './bedrock/auth.js';

/**
 * Signers by what they sign as: a catalog reload builds new provider objects, and an unchanged
 * provider keeps its signer (its held credentials and its one background renewal) instead of
 * starting another one per reload.
 */
const signers = new Map<string, UpstreamAuth>();

/**
 * The credential of a provider's requests, by its kind's scheme: a static key in a header, or a
 * signer that resolves its credentials in the background.
 */
export function endpointAuth(provider: CatalogProvider, apiKey: string | null): UpstreamAuth {
  const scheme = UPSTREAM_KINDS[provider.kind].auth;
  if (scheme !== 'sigv4' || apiKey !== null) return staticAuth(scheme, apiKey);
  const region = provider.bedrock?.region ?? 'us-east-1';
  const profile = provider.bedrock?.profile ?? null;
  const key = JSON.stringify([provider.id, region, profile]);
  let auth = signers.get(key);
  if (auth === undefined) {
    auth = bedrockAuth({ providerId: provider.id, region, profile, apiKey: null });
    signers.set(key, auth);
  }
  return auth;
}
