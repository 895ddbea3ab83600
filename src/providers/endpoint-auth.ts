import type { CatalogProvider } from '../catalog/index.js';
import { staticAuth, type UpstreamAuth } from '../upstream/auth/index.js';
import { UPSTREAM_KINDS } from '../wire/index.js';
import { bedrockAuth } from './bedrock/auth.js';

/**
 * The credential of a provider's requests, by its kind's scheme: a static key in a header, or a
 * signer / token source that resolves its credentials in the background.
 */
export function endpointAuth(provider: CatalogProvider, apiKey: string | null): UpstreamAuth {
  const scheme = UPSTREAM_KINDS[provider.kind].auth;
  if (scheme === 'sigv4') {
    return bedrockAuth({
      providerId: provider.id,
      region: provider.bedrock?.region ?? 'us-east-1',
      profile: provider.bedrock?.profile ?? null,
      apiKey,
    });
  }
  return staticAuth(scheme, apiKey);
}
