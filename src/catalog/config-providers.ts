/**
 * The `providers` section of the catalog config: each entry's shape and its validation, the
 * kind-specific fields read by their own modules (provider-fields/). Issues name their path.
 */
import { SLUG_PATTERN } from './constants.js';
import { PROVIDER_KINDS, UPSTREAM_KINDS, type UpstreamKind } from '../wire/index.js';
import { type ConfigPath, type ObjectReader, readObject } from './config-reader.js';
import { AZURE_PROVIDER_KEYS, readAzureFields, type AzureSettings } from './provider-fields/azure.js';
import {
  BEDROCK_KEYS,
  readBedrockFields,
  regionImpliesBaseUrl,
  type BedrockFields,
} from './provider-fields/bedrock.js';
import {
  GOOGLE_PROVIDER_KEYS,
  hasDefaultBaseUrl,
  readGoogleFields,
  type GoogleProviderConfig,
} from './provider-fields/google.js';
import type { DataCollection, ProviderKind } from './types.js';

export interface ProviderConfig {
  readonly path: ConfigPath;
  readonly id: string;
  readonly name: string | null;
  readonly kind: ProviderKind;
  readonly baseUrl: string | null;
  readonly baseUrlEnv: string | null;
  readonly apiKey: string | null;
  readonly apiKeyEnv: string | null;
  readonly headers: Record<string, string>;
  /** The endpoint serves OpenAI's Responses API (`POST /responses`): `/responses` calls go to it natively. */
  readonly nativeResponses: boolean;
  readonly zdr: boolean;
  readonly dataCollection: DataCollection | null;
  readonly timeouts: { connectMs: number | null; firstByteMs: number | null; idleMs: number | null };
  readonly enabled: boolean;
  readonly privacyPolicyUrl: string | null;
  readonly termsOfServiceUrl: string | null;
  readonly statusPageUrl: string | null;
  readonly headquarters: string | null;
  readonly datacenters: string[] | null;
  /** `kind: azure` only: API version and auth mode (provider-fields/azure.ts). */
  readonly azure: AzureSettings | null;
  /** `kind: bedrock` only (src/catalog/provider-fields/bedrock.ts). */
  readonly bedrock?: BedrockFields | null;
  /** Vertex AI's project and location (null on other kinds). */
  readonly google: GoogleProviderConfig | null;
}

const PROVIDER_KEYS = [
  'id',
  'name',
  'kind',
  'base_url',
  'base_url_env',
  'api_key',
  'api_key_env',
  'headers',
  'native_responses',
  'zdr',
  'data_collection',
  'timeouts',
  'enabled',
  'privacy_policy_url',
  'terms_of_service_url',
  'status_page_url',
  'headquarters',
  'datacenters',
  ...AZURE_PROVIDER_KEYS,
  ...BEDROCK_KEYS,
  ...GOOGLE_PROVIDER_KEYS,
];
const TIMEOUT_KEYS = ['connect_ms', 'first_byte_ms', 'idle_ms'];
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const HTTP_URL = /^https?:\/\/[^\s]+$/;
const COUNTRY = /^[A-Z]{2}$/;

export function readProviders(root: ObjectReader): ProviderConfig[] {
  const out: ProviderConfig[] = [];
  const seen = new Set<string>();
  for (const item of root.array('providers', true) ?? []) {
    const p = readObject(item.value, item.path, root.issues, PROVIDER_KEYS);
    if (!p) continue;
    const id = p.string('id', { required: true, pattern: SLUG_PATTERN, patternHint: 'a lowercase slug' });
    const kind = p.string('kind', { required: true, oneOf: PROVIDER_KINDS }) as ProviderKind | undefined;
    const baseUrl = p.string('base_url', { pattern: HTTP_URL, patternHint: 'an http(s) URL' }) ?? null;
    const baseUrlEnv =
      p.string('base_url_env', { pattern: ENV_NAME, patternHint: 'an environment variable name' }) ?? null;
    const apiKey = p.string('api_key') ?? null;
    const apiKeyEnv =
      p.string('api_key_env', { pattern: ENV_NAME, patternHint: 'an environment variable name' }) ?? null;
    if (p.present('base_url') && p.present('base_url_env'))
      p.fail('base_url_env', 'give either base_url or base_url_env, not both');
    if (p.present('api_key') && p.present('api_key_env'))
      p.fail('api_key_env', 'give either api_key or api_key_env, not both');
    const bedrock = readBedrockFields(p, kind);
    const google = readGoogleFields(p, kind);
    const needsBaseUrl =
      kind !== undefined && UPSTREAM_KINDS[kind].remote && !regionImpliesBaseUrl(kind) && !hasDefaultBaseUrl(kind);
    if (needsBaseUrl && !p.present('base_url') && !p.present('base_url_env')) {
      p.issues.push({ path: p.path, message: `provider of kind "${kind}" needs base_url or base_url_env` });
    }
    const declared: readonly string[] =
      kind === undefined ? [] : ((UPSTREAM_KINDS[kind] as UpstreamKind).declared ?? []);
    if (p.present('native_responses') && kind !== undefined && !declared.includes('openai-responses'))
      p.fail('native_responses', `a provider of kind "${kind}" has no Responses API to declare`);
    const t = p.object('timeouts', TIMEOUT_KEYS);
    const timeouts = {
      connectMs: t?.number('connect_ms', { integer: true, positive: true }) ?? null,
      firstByteMs: t?.number('first_byte_ms', { integer: true, positive: true }) ?? null,
      idleMs: t?.number('idle_ms', { integer: true, positive: true }) ?? null,
    };
    if (id !== undefined) {
      if (seen.has(id)) p.fail('id', `duplicate provider id "${id}"`);
      seen.add(id);
    }
    const provider: ProviderConfig = {
      path: item.path,
      id: id ?? '',
      name: p.string('name') ?? null,
      kind: kind ?? 'openai',
      baseUrl,
      baseUrlEnv,
      apiKey,
      apiKeyEnv,
      headers: p.stringMap('headers') ?? {},
      nativeResponses: p.boolean('native_responses') ?? false,
      zdr: p.boolean('zdr') ?? false,
      dataCollection: (p.string('data_collection', { oneOf: ['allow', 'deny'] }) as DataCollection | undefined) ?? null,
      timeouts,
      enabled: p.boolean('enabled') ?? true,
      privacyPolicyUrl: p.string('privacy_policy_url') ?? null,
      termsOfServiceUrl: p.string('terms_of_service_url') ?? null,
      statusPageUrl: p.string('status_page_url') ?? null,
      headquarters: p.string('headquarters', { pattern: COUNTRY, patternHint: 'an ISO 3166 alpha-2 code' }) ?? null,
      datacenters: p.stringArray('datacenters', { pattern: COUNTRY, patternHint: 'an ISO 3166 alpha-2 code' }) ?? null,
      azure: readAzureFields(p, kind),
      bedrock,
      google,
    };
    out.push(provider);
  }
  return out;
}
