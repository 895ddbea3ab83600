/**
 * GET /providers: `{data: Provider[]}`, no pagination. Lists the providers that
 * can serve traffic now (unavailable ones — disabled or missing their key — are left out).
 */
import type { Catalog } from './types.js';

export interface WireProvider {
  name: string;
  slug: string;
  privacy_policy_url: string | null;
  terms_of_service_url: string | null;
  status_page_url: string | null;
  headquarters: string | null;
  datacenters: string[] | null;
}

export interface ProvidersResponse {
  data: WireProvider[];
}

export function toProvidersResponse(catalog: Catalog): ProvidersResponse {
  return {
    data: catalog.providers
      .filter((p) => p.available)
      .map((p) => ({
        name: p.name,
        slug: p.id,
        privacy_policy_url: p.privacyPolicyUrl,
        terms_of_service_url: p.termsOfServiceUrl,
        status_page_url: p.statusPageUrl,
        headquarters: p.headquarters,
        datacenters: p.datacenters === null ? null : [...p.datacenters],
      })),
  };
}
