import type { CatalogProvider } from '../catalog/index.js';
import { entraTokenAuth } from '../upstream/auth/entra-token.js';
import { staticAuth, type UpstreamAuth } from '../upstream/auth/index.js';
import { UPSTREAM_KINDS } from '../wire/index.js';
import { bedrockAuth } from './bedrock/auth.js';

/**
 * Credentials that renew themselves (signers, token sources) by what they stand for: a catalog
 * reload builds new provider objects, and an unchanged provider keeps its credential (what it
 * holds and its one background renewal) instead of starting another one per reload.
 */
const renewing = new Map<string, UpstreamAuth>();

function kept(key: string, make: () => UpstreamAuth): UpstreamAuth {
  let auth = renewing.get(key);
  if (auth === undefined) {
    auth = make();
    renewing.set(key, auth);
  }
  return auth;
}

/**
 * The credential of a provider's requests, by its kind's scheme: a static key in a header, an AWS
 * signer (Bedrock without a key), or a Microsoft Entra ID token (Azure with `auth: entra`, from
 * the standard `AZURE_*` environment). A renewing credential starts fetching when the provider's
 * endpoint config is built and renews in the background from then on, so only a call made before
 * the first fetch finishes can wait for it.
 */
export function endpointAuth(provider: CatalogProvider, apiKey: string | null): UpstreamAuth {
  if (provider.azure?.auth === 'entra')
    return kept(JSON.stringify(['entra', provider.id]), () => {
      const auth = entraTokenAuth({ providerId: provider.id });
      auth.start?.();
      return auth;
    });
  const scheme = UPSTREAM_KINDS[provider.kind].auth;
  if (scheme !== 'sigv4' || apiKey !== null) return staticAuth(scheme, apiKey);
  const region = provider.bedrock?.region ?? 'us-east-1';
  const profile = provider.bedrock?.profile ?? null;
  return kept(JSON.stringify(['sigv4', provider.id, region, profile]), () =>
    bedrockAuth({ providerId: provider.id, region, profile, apiKey: null }),
  );
}
