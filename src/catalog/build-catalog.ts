/**
 * Turns a validated CatalogConfig into the immutable Catalog: resolves provider availability from
 * the environment (a missing key makes a provider unavailable, never a crash), fills defaults, and
 * builds the lookup maps.
 */
import { nativeDialects, UPSTREAM_KINDS } from '../wire/index.js';
import { DEFAULT_SUPPORTED_PARAMETERS, ZDR_VENDORS } from './constants.js';
import { bedrockSettings } from './provider-fields/bedrock.js';
import type { CatalogConfig, ModelConfig, ProviderConfig } from './config-schema.js';
import { resolveGoogle } from './provider-fields/google.js';
import type {
  Catalog,
  CatalogEndpoint,
  CatalogModel,
  CatalogProvider,
  ZdrGroup,
  ZdrVendor,
  ZdrVendorConfig,
} from './types.js';

export type Env = Readonly<Record<string, string | undefined>>;

export interface BuildOptions {
  readonly env: Env;
  /** `created` (Unix seconds) of models whose config leaves it out. */
  readonly defaultCreated: number;
}

function envValue(env: Env, name: string): string | undefined {
  const value = env[name];
  return value === undefined || value.trim() === '' ? undefined : value;
}

function buildProvider(config: ProviderConfig, env: Env): CatalogProvider {
  let unavailableReason: string | null = null;
  let apiKey: string | null = config.apiKey;
  const google = resolveGoogle(config.kind, config.google, env);
  let baseUrl: string | null = config.baseUrl ?? google.defaultBaseUrl;
  if (!config.enabled) {
    unavailableReason = 'disabled in the config (enabled: false)';
  } else if (UPSTREAM_KINDS[config.kind].remote) {
    if (config.baseUrlEnv !== null) {
      baseUrl = envValue(env, config.baseUrlEnv) ?? null;
      if (baseUrl === null) unavailableReason = `environment variable ${config.baseUrlEnv} is not set`;
      else if (!/^https?:\/\/\S+$/.test(baseUrl)) {
        unavailableReason = `environment variable ${config.baseUrlEnv} is not an http(s) URL`;
        baseUrl = null;
      }
    }
    if (unavailableReason === null && config.apiKeyEnv !== null) {
      apiKey = envValue(env, config.apiKeyEnv) ?? null;
      if (apiKey === null) unavailableReason = `environment variable ${config.apiKeyEnv} is not set`;
    }
    unavailableReason ??= google.unavailable;
  }
  const bedrock =
    config.bedrock === undefined || config.bedrock === null ? null : bedrockSettings(config.bedrock, baseUrl, env);
  if (bedrock !== null && unavailableReason === null) {
    baseUrl = bedrock.baseUrl;
    unavailableReason = bedrock.unavailableReason;
  }
  const secret = unavailableReason === null && UPSTREAM_KINDS[config.kind].remote ? apiKey : null;
  return Object.freeze({
    id: config.id,
    name: config.name ?? config.id,
    kind: config.kind,
    baseUrl: UPSTREAM_KINDS[config.kind].remote ? baseUrl : null,
    headers: Object.freeze({ ...config.headers }),
    nativeDialects: Object.freeze(nativeDialects(config.kind, config.nativeResponses ? ['openai-responses'] : [])),
    zdr: config.zdr,
    dataCollection: config.dataCollection ?? 'allow',
    timeouts: Object.freeze({ ...config.timeouts }),
    available: unavailableReason === null,
    unavailableReason,
    privacyPolicyUrl: config.privacyPolicyUrl,
    termsOfServiceUrl: config.termsOfServiceUrl,
    statusPageUrl: config.statusPageUrl,
    headquarters: config.headquarters,
    datacenters: config.datacenters === null ? null : Object.freeze([...config.datacenters]),
    azure: config.azure,
    getApiKey: () => secret,
    ...(bedrock === null ? {} : { bedrock: bedrock.settings }),
    google: google.google,
  });
}

function groupOfAuthor(author: string, vendors: Readonly<Record<ZdrVendor, ZdrVendorConfig>>): ZdrGroup {
  for (const vendor of ZDR_VENDORS) {
    if (vendors[vendor].authors.includes(author)) return vendor;
  }
  return 'other';
}

/** An embeddings-only model outputs embeddings (so `/models` lists it under that modality only). */
function defaultOutputs(config: ModelConfig): string[] {
  return config.serves.includes('chat') ? ['text'] : ['embeddings'];
}

function buildModel(
  config: ModelConfig,
  providers: ReadonlyMap<string, CatalogProvider>,
  vendors: Readonly<Record<ZdrVendor, ZdrVendorConfig>>,
  defaultCreated: number,
): CatalogModel {
  const author = config.slug.slice(0, config.slug.indexOf('/'));
  const supportedParameters = Object.freeze([...(config.supportedParameters ?? DEFAULT_SUPPORTED_PARAMETERS)]);
  const endpoints: CatalogEndpoint[] = config.endpoints.map((e) =>
    Object.freeze({
      key: `${e.provider}:${e.upstreamModel}`,
      providerId: e.provider,
      upstreamModel: e.upstreamModel,
      pricing: Object.freeze({ ...e.pricing }),
      contextLength: e.contextLength ?? config.contextLength,
      maxCompletionTokens: e.maxCompletionTokens,
      supportedParameters:
        e.supportedParameters === null ? supportedParameters : Object.freeze([...e.supportedParameters]),
      quantization: e.quantization ?? 'unknown',
      isModerated: e.isModerated,
    }),
  );
  return Object.freeze({
    slug: config.slug,
    canonicalSlug: config.canonicalSlug ?? config.slug,
    aliases: Object.freeze([...config.aliases]),
    author,
    name: config.name ?? config.slug,
    description: config.description,
    created: config.created ?? defaultCreated,
    contextLength: config.contextLength,
    inputModalities: Object.freeze([...(config.inputModalities ?? ['text'])]),
    outputModalities: Object.freeze([...(config.outputModalities ?? defaultOutputs(config))]),
    tokenizer: config.tokenizer ?? 'Other',
    instructType: config.instructType,
    huggingFaceId: config.huggingFaceId,
    supportedParameters,
    distillable: config.distillable,
    zdrGroup: groupOfAuthor(author, vendors),
    serves: Object.freeze([...config.serves]),
    endpoints: Object.freeze(endpoints),
    available: endpoints.some((e) => providers.get(e.providerId)?.available === true),
  });
}

export function buildCatalog(config: CatalogConfig, options: BuildOptions): Catalog {
  const warnings: string[] = [];
  const providers = config.providers.map((p) => buildProvider(p, options.env));
  const providerById = new Map(providers.map((p) => [p.id, p]));
  for (const p of providers) {
    if (!p.available) warnings.push(`provider "${p.id}" is unavailable: ${p.unavailableReason ?? ''}`);
  }
  const vendors: Record<ZdrVendor, ZdrVendorConfig> = Object.freeze({ ...config.zdrVendors });
  const models = config.models.map((m) => buildModel(m, providerById, vendors, options.defaultCreated));
  const hidden = models.filter((m) => !m.available).map((m) => m.slug);
  if (hidden.length > 0) {
    warnings.push(`${hidden.length} model(s) have no available provider and cannot be routed: ${hidden.join(', ')}`);
  }
  const exact = new Map<string, CatalogModel>();
  const folded = new Map<string, CatalogModel>();
  for (const m of models) {
    for (const key of [m.slug, m.canonicalSlug, ...m.aliases]) {
      exact.set(key, m);
      folded.set(key.toLowerCase(), m);
    }
  }
  const vendorNames = Object.freeze(
    Object.fromEntries(ZDR_VENDORS.map((v) => [v, vendors[v].name])) as Record<ZdrVendor, string>,
  );
  const byVendorName = new Map(ZDR_VENDORS.map((v) => [vendors[v].name, v]));
  const findModel = (slug: string): CatalogModel | undefined => exact.get(slug) ?? folded.get(slug.toLowerCase());
  const catalog: Catalog = {
    providers: Object.freeze(providers),
    models: Object.freeze(models),
    zdrVendors: vendors,
    vendorNames,
    warnings: Object.freeze(warnings),
    findModel,
    findProvider: (id) => providerById.get(id.toLowerCase()),
    zdrGroupOf: (model) => {
      if (typeof model !== 'string') return model.zdrGroup;
      const found = findModel(model);
      if (found) return found.zdrGroup;
      const slash = model.indexOf('/');
      return groupOfAuthor((slash < 0 ? model : model.slice(0, slash)).toLowerCase(), vendors);
    },
    vendorForName: (name) => byVendorName.get(name.toLowerCase()),
  };
  return Object.freeze(catalog);
}
