import type { CatalogProvider } from '../catalog/index.js';
import { googleTokenAuth } from '../upstream/auth/google-token.js';
import { staticAuth, type UpstreamAuth } from '../upstream/auth/index.js';
import { UPSTREAM_KINDS } from '../wire/index.js';

/**
 * The credential of a catalog provider's requests, by its kind's scheme: a fixed key header, or
 * Google access tokens (Vertex AI) fetched and refreshed in the background from the first use
 * on, so calls wait for a token only while none is held yet.
 */
export function endpointAuth(provider: CatalogProvider, apiKey: string | null): UpstreamAuth {
  const scheme = UPSTREAM_KINDS[provider.kind].auth;
  if (scheme !== 'google-oauth') return staticAuth(scheme, apiKey);
  const auth = googleTokenAuth({ providerId: provider.id, keyFile: provider.google?.credentialsFile ?? null });
  auth.start?.();
  return auth;
}
