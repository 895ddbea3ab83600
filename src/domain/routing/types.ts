/**
 * Types of endpoint selection for one request: the validated `provider` preferences, the guardrail policy computed elsewhere, the ordered candidates, and the refusal that
 * names the rule that removed every candidate.
 */
import type {
  CatalogEndpoint,
  CatalogModel,
  CatalogProvider,
  DataCollection,
  Quantization,
  ZdrGroup,
} from '../../catalog/index.js';

export type SortBy = 'price' | 'throughput' | 'latency' | 'exacto';
export type Partition = 'model' | 'none';

/** `{p50?, p75?, p90?, p99?}`; a bare number means p50. */
export interface Percentiles {
  readonly p50?: number;
  readonly p75?: number;
  readonly p90?: number;
  readonly p99?: number;
}

/** max_price as sent: prompt/completion in USD per MILLION tokens; image, audio, request per unit. */
export interface MaxPrice {
  readonly prompt?: number;
  readonly completion?: number;
  readonly image?: number;
  readonly audio?: number;
  readonly request?: number;
}

/** Validated `provider` object; nulls of the wire form are normalised to the defaults. */
export interface ProviderPreferences {
  readonly order: readonly string[] | null;
  readonly only: readonly string[] | null;
  readonly ignore: readonly string[] | null;
  /** Default true. */
  readonly allowFallbacks: boolean;
  /** null: default routing (price, health). */
  readonly sort: { readonly by: SortBy | null; readonly partition: Partition } | null;
  readonly maxPrice: MaxPrice | null;
  readonly zdr: boolean;
  /** Default `allow`. */
  readonly dataCollection: DataCollection;
  readonly requireParameters: boolean;
  readonly quantizations: readonly Quantization[] | null;
  /** Seconds (soft). */
  readonly preferredMaxLatency: Percentiles | null;
  /** Tokens per second (soft). */
  readonly preferredMinThroughput: Percentiles | null;
  readonly enforceDistillableText: boolean;
}

/**
 * What the request's guardrails allow, computed by the guardrails domain (allow lists
 * intersected, ignore lists united, ZDR OR-ed per group). Model sets hold canonical slugs (a plain
 * slug also matches); provider sets hold provider ids (case-insensitive).
 */
export interface RoutingPolicy {
  readonly allowedModels: ReadonlySet<string> | null;
  readonly ignoredModels: ReadonlySet<string>;
  readonly allowedProviders: ReadonlySet<string> | null;
  readonly ignoredProviders: ReadonlySet<string>;
  /** Groups whose ZDR is enforced: their models may only use `zdr: true` providers. */
  readonly zdrGroups: ReadonlySet<ZdrGroup>;
}

/** Read-only view of endpoint health (implemented by EndpointHealth in health.ts). */
export interface HealthView {
  isHealthy(endpointKey: string): boolean;
  /** EWMA latency in milliseconds, undefined without data. */
  latencyMs(endpointKey: string): number | undefined;
  /** EWMA throughput in tokens per second, undefined without data. */
  throughput(endpointKey: string): number | undefined;
}

export interface RouteCandidate {
  readonly model: CatalogModel;
  readonly endpoint: CatalogEndpoint;
  readonly provider: CatalogProvider;
  /** False when the endpoint's breaker is open: it was pushed to the back, not removed. */
  readonly healthy: boolean;
}

export type PolicyRule = 'allowed_models' | 'ignored_models' | 'allowed_providers' | 'ignored_providers' | 'zdr';

export type PreferenceRule =
  | 'enforce_distillable_text'
  | 'only'
  | 'ignore'
  | 'zdr'
  | 'data_collection'
  | 'quantizations'
  | 'max_price'
  | 'require_parameters'
  | 'allow_fallbacks';

export type RouteRefusal =
  /** Neither `model` nor `models` given. → 400 */
  | { readonly kind: 'missing_model' }
  /** A slug in `model`/`models` is not in the catalog. → 404 */
  | { readonly kind: 'unknown_model'; readonly model: string }
  /** A guardrail rule removed the last candidates. → 403 */
  | { readonly kind: 'policy'; readonly rule: PolicyRule; readonly models: readonly string[] }
  /** A `provider` preference removed the last candidates. → 404 */
  | { readonly kind: 'preference'; readonly rule: PreferenceRule; readonly models: readonly string[] }
  /** Every endpoint's provider is unavailable (disabled, key unset). → 503 */
  | { readonly kind: 'no_endpoints'; readonly reasons: readonly string[]; readonly models: readonly string[] };

export type RouteResult =
  | { readonly ok: true; readonly candidates: readonly RouteCandidate[] }
  | { readonly ok: false; readonly refusal: RouteRefusal };
