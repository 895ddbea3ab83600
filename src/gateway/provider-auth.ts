import type { CatalogProvider } from '../catalog/index.js';
import { entraTokenAuth } from '../upstream/auth/entra-token.js';
import { staticAuth, type UpstreamAuth } from '../upstream/auth/index.js';
import { UPSTREAM_KINDS } from '../wire/index.js';

/**
 * One Entra token source per provider id for the life of the process: a catalog reload builds new
 * provider objects, and the token (same scope, same environment) stays valid across it; a fresh
 * source per reload would leave the old one refreshing in the background.
 */
const entraSources = new Map<string, UpstreamAuth>();

/**
 * The credential of a provider's calls: its key in the header its kind names, or, for an Azure
 * provider with `auth: entra`, a Microsoft Entra ID token from the standard `AZURE_*`
 * environment (client secret, workload identity, managed identity). The token fetch starts here,
 * when the provider's first call builds its config, and is refreshed in the background from then
 * on, so only that first call can wait for a token.
 */
export function providerAuth(provider: CatalogProvider, apiKey: string | null): UpstreamAuth {
  if (provider.azure?.auth === 'entra') {
    let auth = entraSources.get(provider.id);
    if (auth === undefined) {
      auth = entraTokenAuth({ providerId: provider.id });
      auth.start?.();
      entraSources.set(provider.id, auth);
    }
    return auth;
  }
  return staticAuth(UPSTREAM_KINDS[provider.kind].auth, apiKey);
}
