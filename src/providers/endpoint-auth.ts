import type { CatalogProvider } from '../catalog/index.js';
import { googleTokenAuth } from '../upstream/auth/google-token.js';
import { staticAuth, type UpstreamAuth } from '../upstream/auth/index.js';
import { UPSTREAM_KINDS } from '../wire/index.js';

/**
 * Google token sources by provider id and credentials file: a catalog reload builds new provider
 * objects, and reusing the source keeps its held token and its one background renewal (a new
 * source per reload would fetch again and leave the old one renewing).
 */
const googleSources = new Map<string, UpstreamAuth>();

/**
 * The credential of a catalog provider's requests, by its kind's scheme: a fixed key header, or
 * Google access tokens (Vertex AI) fetched and renewed in the background from the provider's first
 * use on, so a call waits for a token only while none is held yet.
 */
export function endpointAuth(provider: CatalogProvider, apiKey: string | null): UpstreamAuth {
  const scheme = UPSTREAM_KINDS[provider.kind].auth;
  if (scheme !== 'google-oauth') return staticAuth(scheme, apiKey);
  const keyFile = provider.google?.credentialsFile ?? null;
  const key = `${provider.id}\n${keyFile ?? ''}`;
  let auth = googleSources.get(key);
  if (auth === undefined) {
    auth = googleTokenAuth({ providerId: provider.id, keyFile });
    auth.start?.();
    googleSources.set(key, auth);
  }
  return auth;
}
