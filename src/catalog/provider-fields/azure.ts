import type { ObjectReader } from '../config-reader.js';
import type { ProviderKind } from '../types.js';

/**
 * The catalog fields of a `kind: azure` provider (Azure OpenAI) and their validation. The
 * resource is `base_url` (`https://NAME.openai.azure.com`); an endpoint's `upstream_model` is
 * the deployment name.
 */

/** How an Azure provider authenticates: its key in the `api-key` header, or a Microsoft Entra ID token. */
export type AzureAuthMode = 'api_key' | 'entra';

export interface AzureSettings {
  /**
   * A dated API version (`2024-10-21`, `2025-04-01-preview`): calls go to
   * `/openai/deployments/{deployment}/…?api-version=`; or `v1`: `/openai/v1/…` with the
   * deployment as the body's `model`.
   */
  readonly apiVersion: string;
  readonly auth: AzureAuthMode;
}

export const AZURE_PROVIDER_KEYS = ['api_version', 'auth'] as const;

const API_VERSION = /^(v1|\d{4}-\d{2}-\d{2}(-preview)?)$/;
const AUTH_MODES: readonly AzureAuthMode[] = ['api_key', 'entra'];

/** Whether an Azure provider calls the v1 API (model in the body) rather than a dated deployment API. */
export function isAzureV1(settings: AzureSettings): boolean {
  return settings.apiVersion === 'v1';
}

/**
 * Reads `api_version` and `auth` of a provider: required (api_version) for kind azure and refused
 * on every other kind; a key (`api_key`/`api_key_env`) is required with `auth: api_key` and
 * refused with `auth: entra`, whose credential comes from the standard `AZURE_*` environment.
 */
export function readAzureFields(p: ObjectReader, kind: ProviderKind | undefined): AzureSettings | null {
  if (kind !== 'azure') {
    for (const key of AZURE_PROVIDER_KEYS)
      if (p.present(key)) p.fail(key, `only a provider of kind "azure" takes ${key}`);
    return null;
  }
  const apiVersion = p.string('api_version', {
    required: true,
    pattern: API_VERSION,
    patternHint: 'an Azure OpenAI API version ("2024-10-21", "2025-04-01-preview") or "v1"',
  });
  const auth = (p.string('auth', { oneOf: AUTH_MODES }) as AzureAuthMode | undefined) ?? 'api_key';
  const hasKey = p.present('api_key') || p.present('api_key_env');
  if (auth === 'entra' && hasKey)
    p.fail(p.present('api_key') ? 'api_key' : 'api_key_env', 'a provider with auth: entra takes no key');
  if (auth === 'api_key' && !hasKey)
    p.issues.push({
      path: p.path,
      message: 'a provider of kind "azure" needs api_key_env (or api_key), or auth: entra',
    });
  // Azure serves the Responses API on the v1 API only (`/openai/v1/responses`).
  if (apiVersion !== undefined && apiVersion !== 'v1' && p.value.native_responses === true)
    p.fail('native_responses', `native_responses needs api_version: v1 (Azure's Responses API), not "${apiVersion}"`);
  return apiVersion === undefined ? null : Object.freeze({ apiVersion, auth });
}
