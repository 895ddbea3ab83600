/**
 * Public types of the model catalog: which providers exist, which models they serve, at what
 * price, and which zero-data-retention (ZDR) vendor group each model belongs to. A Catalog is built
 * once at start (see load-catalog.ts) and never mutated; every object reachable from it is frozen.
 */

import type { ProviderKind, WireDialect } from '../wire/index.js';
import type { AzureSettings } from './provider-fields/azure.js';
import type { BedrockSettings } from './provider-fields/bedrock.js';
import type { GoogleProvider } from './provider-fields/google.js';

/** The kind of a provider (src/wire/index.ts): the dialects it speaks; one adapter per kind. */
export type { ProviderKind } from '../wire/index.js';

/** What a model serves: chat (chat, legacy completions, messages, responses) or embeddings. */
export type ModelService = 'chat' | 'embeddings';

/** The four configurable ZDR vendor markers of the guardrail API (`enforce_zdr_vendor_a` …). */
export type ZdrVendor = 'vendor_a' | 'vendor_b' | 'vendor_c' | 'vendor_d';
/** A model's ZDR group: one of the four vendors, or `other` for every other author. */
export type ZdrGroup = ZdrVendor | 'other';

export type DataCollection = 'allow' | 'deny';

export interface ZdrVendorConfig {
  /** Lowercase vendor name; `enforce_zdr_<name>` is accepted as an input alias. */
  readonly name: string;
  /** Model authors (the part of the slug before `/`) that belong to this vendor. */
  readonly authors: readonly string[];
}

export interface ProviderTimeouts {
  readonly connectMs: number | null;
  readonly firstByteMs: number | null;
  readonly idleMs: number | null;
}

export interface CatalogProvider {
  /** Lowercase slug used by routing preferences and guardrails. */
  readonly id: string;
  /** Display name (defaults to the id). */
  readonly name: string;
  readonly kind: ProviderKind;
  /** Upstream base URL (`null` for kind `demo`). */
  readonly baseUrl: string | null;
  readonly headers: Readonly<Record<string, string>>;
  /**
   * The client formats this provider takes as they are (inbound dialect = upstream dialect: no
   * translation): its kind's, with those the kind speaks only on declaration (`native_responses`).
   */
  readonly nativeDialects: readonly WireDialect[];
  /** The provider honours zero data retention. */
  readonly zdr: boolean;
  /** Whether the provider stores or trains on data; `allow` when the config leaves it out. */
  readonly dataCollection: DataCollection;
  readonly timeouts: ProviderTimeouts;
  /** False when the provider is disabled or its key / base-URL environment variable is unset. */
  readonly available: boolean;
  /** Why the provider is unavailable (null when available). Never contains a secret. */
  readonly unavailableReason: string | null;
  /** For /providers. */
  readonly privacyPolicyUrl: string | null;
  readonly termsOfServiceUrl: string | null;
  readonly statusPageUrl: string | null;
  readonly headquarters: string | null;
  readonly datacenters: readonly string[] | null;
  /** `kind: azure` only (null otherwise): API version and auth mode. */
  readonly azure: AzureSettings | null;
  /**
   * The API key (resolved from `api_key_env` or the literal `api_key`), or null when the provider
   * needs none. A function so that serialising or logging the catalog never prints the secret.
   */
  getApiKey(): string | null;
  /** `kind: bedrock` only: the region it signs for and the AWS profile, if one is named. */
  readonly bedrock?: BedrockSettings;
  /** Vertex AI's project, location and credentials file (null on other kinds). */
  readonly google: GoogleProvider | null;
}

/** Per-token prices in USD (numbers). Optional entries are absent when not configured. */
export interface EndpointPricing {
  readonly prompt: number;
  readonly completion: number;
  readonly request?: number;
  readonly image?: number;
  readonly audio?: number;
  readonly inputCacheRead?: number;
  readonly inputCacheWrite?: number;
  readonly internalReasoning?: number;
  readonly webSearch?: number;
}

export type Quantization =
  'int4' | 'int8' | 'fp4' | 'mxfp4' | 'nvfp4' | 'fp6' | 'fp8' | 'mxfp8' | 'fp16' | 'bf16' | 'fp32' | 'unknown';

export interface CatalogEndpoint {
  /** Stable key `<provider id>:<upstream model>`; the breaker and the EWMA are kept per key. */
  readonly key: string;
  readonly providerId: string;
  /** The model name sent upstream. */
  readonly upstreamModel: string;
  readonly pricing: EndpointPricing;
  /** Context length of this endpoint (defaults to the model's). */
  readonly contextLength: number;
  readonly maxCompletionTokens: number | null;
  /** Parameters this endpoint honours (defaults to the model's list); used by require_parameters. */
  readonly supportedParameters: readonly string[];
  readonly quantization: Quantization;
  readonly isModerated: boolean;
}

export interface CatalogModel {
  /** Routable slug `author/name`. */
  readonly slug: string;
  /** Immutable id stored by guardrails (defaults to the slug). */
  readonly canonicalSlug: string;
  /** Other names a request may use for this model (e.g. a vendor's model id); unique in the catalog. */
  readonly aliases: readonly string[];
  /** The part of the slug before `/`; decides the ZDR group. */
  readonly author: string;
  readonly name: string;
  readonly description: string | null;
  /** Unix seconds. */
  readonly created: number;
  readonly contextLength: number;
  readonly inputModalities: readonly string[];
  readonly outputModalities: readonly string[];
  readonly tokenizer: string;
  readonly instructType: string | null;
  readonly huggingFaceId: string | null;
  readonly supportedParameters: readonly string[];
  /** Author permits distillation (provider.enforce_distillable_text). Default false. */
  readonly distillable: boolean;
  readonly zdrGroup: ZdrGroup;
  /** What the model may be called for (config `serves`, default `[chat]`). */
  readonly serves: readonly ModelService[];
  /** Every configured endpoint, in config order, including those of unavailable providers. */
  readonly endpoints: readonly CatalogEndpoint[];
  /** True when at least one endpoint's provider is available. */
  readonly available: boolean;
}

export interface Catalog {
  /** Every configured provider, available or not, in config order. */
  readonly providers: readonly CatalogProvider[];
  /** Every configured model, in config order. */
  readonly models: readonly CatalogModel[];
  readonly zdrVendors: Readonly<Record<ZdrVendor, ZdrVendorConfig>>;
  /** vendor marker → vendor name, e.g. `vendor_a` → `anthropic`. */
  readonly vendorNames: Readonly<Record<ZdrVendor, string>>;
  /** Non-fatal findings of the load (unavailable providers …). Never contains a secret. */
  readonly warnings: readonly string[];
  /**
   * A model by slug, canonical slug or alias (exact, then case-insensitive). Routing resolves
   * every requested name through it, so guardrails and metering see the real model.
   */
  findModel(slugOrCanonical: string): CatalogModel | undefined;
  /** A provider by id (case-insensitive). */
  findProvider(id: string): CatalogProvider | undefined;
  /** The ZDR group of a model (object, slug, canonical slug, or unknown `author/name`). */
  zdrGroupOf(model: CatalogModel | string): ZdrGroup;
  /** The vendor marker for a vendor name (`anthropic` → `vendor_a`), for `enforce_zdr_<name>`. */
  vendorForName(name: string): ZdrVendor | undefined;
}
