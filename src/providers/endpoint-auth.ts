import type { CatalogProvider } from '../catalog/index.js';
import { entraTokenAuth } from '../upstream/auth/entra-token.js';
import { googleTokenAuth } from '../upstream/auth/google-token.js';
import { staticAuth, type UpstreamAuth } from '../upstream/auth/index.js';
import { UPSTREAM_KINDS } from '../wire/index.js';
import { bedrockAuth } from './bedrock/auth.js';

/**
 * Credentials that renew themselves (signers, token sources) by what they stand for: a catalog
 * reload builds new provider objects, and an unchanged provider keeps its credential (what it
 * holds and its one background renewal) instead of starting another one per reload.
 */
const renewing = new Map<string, UpstreamAuth>();

function kept(key: readonly unknown[], make: () => UpstreamAuth): UpstreamAuth {
  const id = JSON.stringify(key);
  let auth = renewing.get(id);
  if (auth === undefined) {
    auth = make();
    auth.start?.();
    renewing.set(id, auth);
  }
  return auth;
}

/**
 * The credential of a provider's requests, by its kind's scheme: a static key in a header, an AWS
 * signer (Bedrock without a key), a Microsoft Entra ID token (Azure with `auth: entra`, from the
 * standard `AZURE_*` environment) or Google access tokens (Vertex AI). A renewing credential starts
 * fetching when the provider's endpoint config is built and renews in the background from then
 * on, so a call waits only while none is held yet.
 */
export function endpointAuth(provider: CatalogProvider, apiKey: string | null): UpstreamAuth {
  if (provider.azure?.auth === 'entra')
    return kept(['entra', provider.id], () => entraTokenAuth({ providerId: provider.id }));
  const scheme = UPSTREAM_KINDS[provider.kind].auth;
  if (scheme === 'google-oauth') {
    const keyFile = provider.google?.credentialsFile ?? null;
    return kept(['google', provider.id, keyFile], () => googleTokenAuth({ providerId: provider.id, keyFile }));
  }
  if (scheme !== 'sigv4' || apiKey !== null) return staticAuth(scheme, apiKey);
  const region = provider.bedrock?.region ?? 'us-east-1';
  const profile = provider.bedrock?.profile ?? null;
  return kept(['sigv4', provider.id, region, profile], () =>
    bedrockAuth({ providerId: provider.id, region, profile, apiKey: null }),
  );
}
