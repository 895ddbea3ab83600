/**
 * The shape of the catalog config file and its validation. `validateCatalogConfig` takes the
 * parsed JSON value and returns a typed CatalogConfig plus every issue found (all of them, not
 * only the first), each naming its path. Environment variables are not consulted here.
 */
import {
  DEFAULT_ZDR_VENDORS,
  INPUT_MODALITIES,
  KNOWN_PARAMETERS,
  MAX_PLAUSIBLE_TOKEN_PRICE,
  MODEL_SLUG_PATTERN,
  OUTPUT_MODALITIES,
  QUANTIZATIONS,
  SLUG_PATTERN,
  ZDR_VENDORS,
} from './constants.js';
import { servesEmbeddings } from '../wire/index.js';
import { type ConfigIssue, type ObjectReader, readObject } from './config-reader.js';
import { readProviders, type ProviderConfig } from './config-providers.js';
import type { EndpointPricing, ModelService, Quantization, ZdrVendor, ZdrVendorConfig } from './types.js';

export type { ProviderConfig };

export interface EndpointConfig {
  readonly provider: string;
  readonly upstreamModel: string;
  readonly pricing: EndpointPricing;
  readonly contextLength: number | null;
  readonly maxCompletionTokens: number | null;
  readonly supportedParameters: string[] | null;
  readonly quantization: Quantization | null;
  readonly isModerated: boolean;
}

export interface ModelConfig {
  readonly slug: string;
  readonly canonicalSlug: string | null;
  /** Other names clients may send for this model (vendor model ids); resolved before routing. */
  readonly aliases: string[];
  readonly name: string | null;
  readonly description: string | null;
  /** Unix seconds, or null to use the loader's default. */
  readonly created: number | null;
  readonly contextLength: number;
  readonly inputModalities: string[] | null;
  readonly outputModalities: string[] | null;
  readonly tokenizer: string | null;
  readonly instructType: string | null;
  readonly huggingFaceId: string | null;
  readonly supportedParameters: string[] | null;
  readonly distillable: boolean;
  readonly serves: ModelService[];
  readonly endpoints: EndpointConfig[];
}

export interface CatalogConfig {
  readonly providers: ProviderConfig[];
  readonly zdrVendors: Record<ZdrVendor, ZdrVendorConfig>;
  readonly models: ModelConfig[];
}

const TOP_KEYS = ['providers', 'zdr_vendors', 'models'];
const MODEL_KEYS = [
  'slug',
  'canonical_slug',
  'aliases',
  'name',
  'description',
  'created',
  'context_length',
  'input_modalities',
  'output_modalities',
  'tokenizer',
  'instruct_type',
  'hugging_face_id',
  'supported_parameters',
  'distillable',
  'serves',
  'endpoints',
];
const ENDPOINT_KEYS = [
  'provider',
  'upstream_model',
  'pricing',
  'context_length',
  'max_completion_tokens',
  'supported_parameters',
  'quantization',
  'is_moderated',
];
/** Config key → EndpointPricing field, and whether the price is per token. */
const PRICING_KEYS: Record<string, { field: keyof EndpointPricing; perToken: boolean }> = {
  prompt: { field: 'prompt', perToken: true },
  completion: { field: 'completion', perToken: true },
  request: { field: 'request', perToken: false },
  image: { field: 'image', perToken: false },
  audio: { field: 'audio', perToken: false },
  input_cache_read: { field: 'inputCacheRead', perToken: true },
  input_cache_write: { field: 'inputCacheWrite', perToken: true },
  internal_reasoning: { field: 'internalReasoning', perToken: true },
  web_search: { field: 'webSearch', perToken: false },
};

export interface ValidationOutcome {
  readonly config: CatalogConfig | null;
  readonly issues: ConfigIssue[];
}

export function validateCatalogConfig(value: unknown): ValidationOutcome {
  const issues: ConfigIssue[] = [];
  const root = readObject(value, [], issues, TOP_KEYS);
  if (!root) return { config: null, issues };
  const providers = readProviders(root);
  const zdrVendors = readZdrVendors(root);
  const providerIds = new Set(providers.map((p) => p.id));
  const models = readModels(root, providerIds);
  checkAliases(root, models);
  checkServes(root, models, providers);
  return { config: issues.length === 0 ? { providers, zdrVendors, models } : null, issues };
}

function readZdrVendors(root: ObjectReader): Record<ZdrVendor, ZdrVendorConfig> {
  const result: Record<ZdrVendor, ZdrVendorConfig> = { ...DEFAULT_ZDR_VENDORS };
  const section = root.object('zdr_vendors', ZDR_VENDORS);
  if (!section) return result;
  for (const vendor of ZDR_VENDORS) {
    const v = section.object(vendor, ['name', 'authors']);
    if (!v) continue;
    const name = v.string('name', { required: true, pattern: SLUG_PATTERN, patternHint: 'a lowercase slug' });
    const authors = v.stringArray('authors', {
      required: true,
      nonEmpty: true,
      pattern: SLUG_PATTERN,
      patternHint: 'a lowercase author slug',
    });
    if (name === 'other') v.fail('name', '"other" is reserved for enforce_zdr_other');
    if (name !== undefined && authors !== undefined) result[vendor] = { name, authors };
  }
  const names = new Map<string, ZdrVendor>();
  const authors = new Map<string, ZdrVendor>();
  for (const vendor of ZDR_VENDORS) {
    const entry = result[vendor];
    const clash = names.get(entry.name);
    if (clash)
      section.issues.push({
        path: [...section.path, vendor, 'name'],
        message: `vendor name "${entry.name}" is also used by ${clash}`,
      });
    names.set(entry.name, vendor);
    for (const author of entry.authors) {
      const other = authors.get(author);
      if (other)
        section.issues.push({
          path: [...section.path, vendor, 'authors'],
          message: `author "${author}" is also listed under ${other}`,
        });
      authors.set(author, vendor);
    }
  }
  return result;
}

function readModels(root: ObjectReader, providerIds: ReadonlySet<string>): ModelConfig[] {
  const out: ModelConfig[] = [];
  const seen = new Map<string, string>();
  for (const item of root.array('models', true) ?? []) {
    const m = readObject(item.value, item.path, root.issues, MODEL_KEYS);
    if (!m) continue;
    const slug = m.string('slug', {
      required: true,
      pattern: MODEL_SLUG_PATTERN,
      patternHint: 'a lowercase "author/name" slug',
    });
    const canonical = m.string('canonical_slug', {
      pattern: MODEL_SLUG_PATTERN,
      patternHint: 'a lowercase "author/name" slug',
    });
    for (const [key, value] of [
      ['slug', slug],
      ['canonical_slug', canonical],
    ] as const) {
      if (value === undefined || (key === 'canonical_slug' && value === slug)) continue;
      const previous = seen.get(value);
      if (previous !== undefined) m.fail(key, `"${value}" is already used as the ${previous}`);
      else seen.set(value, `${key} of models[${String(item.path[1])}]`);
    }
    const contextLength = m.number('context_length', { required: true, integer: true, positive: true });
    const endpoints = readEndpoints(m, providerIds);
    out.push({
      slug: slug ?? '',
      canonicalSlug: canonical ?? null,
      aliases: m.stringArray('aliases') ?? [],
      name: m.string('name') ?? null,
      description: m.string('description') ?? null,
      created: readCreated(m),
      contextLength: contextLength ?? 0,
      inputModalities: m.stringArray('input_modalities', { nonEmpty: true, oneOf: INPUT_MODALITIES }) ?? null,
      outputModalities: m.stringArray('output_modalities', { nonEmpty: true, oneOf: OUTPUT_MODALITIES }) ?? null,
      tokenizer: m.string('tokenizer') ?? null,
      instructType: m.string('instruct_type') ?? null,
      huggingFaceId: m.string('hugging_face_id') ?? null,
      supportedParameters: m.stringArray('supported_parameters', { oneOf: KNOWN_PARAMETERS }) ?? null,
      distillable: m.boolean('distillable') ?? false,
      serves: (m.stringArray('serves', { nonEmpty: true, oneOf: MODEL_SERVICES }) as ModelService[] | undefined) ?? [
        'chat',
      ],
      endpoints,
    });
  }
  return out;
}

/** Longest alias accepted: a request's `model` is at most this long too. */
const MAX_ALIAS_LENGTH = 300;

/**
 * An alias is any string, but the name it answers to must be unambiguous: unique across the
 * catalog (case-insensitively, as slugs are found case-insensitively) and never another model's
 * slug or canonical slug. Checked after every model is read, so order in the file does not matter.
 */
function checkAliases(root: ObjectReader, models: readonly ModelConfig[]): void {
  const names = new Map<string, number>();
  models.forEach((m, index) => {
    for (const name of [m.slug, m.canonicalSlug]) if (name !== null) names.set(name.toLowerCase(), index);
  });
  const aliases = new Map<string, number>();
  models.forEach((m, index) => {
    m.aliases.forEach((alias, at) => {
      const key = alias.toLowerCase();
      const path = ['models', index, 'aliases', at];
      const owner = names.get(key);
      const earlier = aliases.get(key);
      if (alias.length > MAX_ALIAS_LENGTH) {
        root.issues.push({ path, message: `an alias is at most ${MAX_ALIAS_LENGTH} characters` });
      } else if (owner !== undefined) {
        const whose = owner === index ? 'this model' : `models[${owner}]`;
        root.issues.push({ path, message: `alias "${alias}" is already the slug of ${whose}` });
      } else if (earlier !== undefined) {
        const whose = earlier === index ? 'this model' : `models[${earlier}]`;
        root.issues.push({ path, message: `alias "${alias}" is already an alias of ${whose}` });
      } else aliases.set(key, index);
    });
  });
}

const MODEL_SERVICES: readonly ModelService[] = ['chat', 'embeddings'];

/** Embeddings need an endpoint that speaks the embeddings dialect (the Messages API has none). */
function checkServes(root: ObjectReader, models: ModelConfig[], providers: ProviderConfig[]): void {
  const kinds = new Map(providers.map((p) => [p.id, p.kind]));
  models.forEach((m, index) => {
    if (!m.serves.includes('embeddings')) return;
    for (const e of m.endpoints) {
      const kind = kinds.get(e.provider);
      if (kind !== undefined && !servesEmbeddings(kind))
        root.issues.push({
          path: ['models', index, 'serves'],
          message: `provider "${e.provider}" (kind ${kind}) cannot serve embeddings`,
        });
    }
  });
}

function readCreated(m: ObjectReader): number | null {
  if (!m.present('created')) return null;
  const value = m.value['created'];
  if (typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value)) {
    const ms = Date.parse(`${value}T00:00:00Z`);
    if (Number.isFinite(ms)) return Math.floor(ms / 1000);
  }
  if (typeof value === 'number' && Number.isInteger(value) && value >= 0) return value;
  m.fail('created', 'must be Unix seconds or a date "YYYY-MM-DD"');
  return null;
}

function readEndpoints(m: ObjectReader, providerIds: ReadonlySet<string>): EndpointConfig[] {
  const out: EndpointConfig[] = [];
  const items = m.array('endpoints', true);
  if (items && items.length === 0) m.fail('endpoints', 'a model needs at least one endpoint');
  const used = new Set<string>();
  for (const item of items ?? []) {
    const e = readObject(item.value, item.path, m.issues, ENDPOINT_KEYS);
    if (!e) continue;
    const provider = e.string('provider', { required: true });
    if (provider !== undefined) {
      if (!providerIds.has(provider)) e.fail('provider', `unknown provider "${provider}"`);
      else if (used.has(provider)) e.fail('provider', `provider "${provider}" already serves this model`);
      used.add(provider);
    }
    const upstreamModel = e.string('upstream_model', { required: true });
    const pricing = readPricing(e);
    out.push({
      provider: provider ?? '',
      upstreamModel: upstreamModel ?? '',
      pricing: pricing ?? { prompt: 0, completion: 0 },
      contextLength: e.number('context_length', { integer: true, positive: true }) ?? null,
      maxCompletionTokens: e.number('max_completion_tokens', { integer: true, positive: true }) ?? null,
      supportedParameters: e.stringArray('supported_parameters', { oneOf: KNOWN_PARAMETERS }) ?? null,
      quantization: (e.string('quantization', { oneOf: QUANTIZATIONS }) as Quantization | undefined) ?? null,
      isModerated: e.boolean('is_moderated') ?? false,
    });
  }
  return out;
}

function readPricing(e: ObjectReader): EndpointPricing | undefined {
  const p = e.object('pricing', Object.keys(PRICING_KEYS), true);
  if (!p) return undefined;
  const pricing: Record<string, number> = {};
  for (const [key, { field, perToken }] of Object.entries(PRICING_KEYS)) {
    const value = p.number(key, { required: key === 'prompt' || key === 'completion', min: 0 });
    if (value === undefined) continue;
    if (perToken && value > MAX_PLAUSIBLE_TOKEN_PRICE) {
      p.fail(
        key,
        `${value} USD per token is implausible; prices are USD per TOKEN (e.g. $2.50 per million = 0.0000025)`,
      );
      continue;
    }
    pricing[field] = value;
  }
  const prompt = pricing['prompt'];
  const completion = pricing['completion'];
  if (prompt === undefined || completion === undefined) return undefined;
  return { ...pricing, prompt, completion };
}
