/**
 * The filters of endpoint selection, in the order they apply. When a stage removes the last
 * remaining candidate, the refusal names that stage's rule — so the order decides which rule is
 * blamed: availability (503) first, then guardrail policy (403), then request preferences (404).
 */
import {
  KNOWN_PARAMETERS,
  type CatalogEndpoint,
  type CatalogModel,
  type CatalogProvider,
} from '../../catalog/index.js';
import type { PolicyRule, PreferenceRule, ProviderPreferences, RoutingPolicy } from './types.js';
import { DEFAULT_PREFERENCES } from './validate-preferences.js';

export interface Entry {
  readonly model: CatalogModel;
  readonly modelIndex: number;
  readonly endpoint: CatalogEndpoint;
  readonly endpointIndex: number;
  readonly provider: CatalogProvider;
}

export type Stage<T> =
  | { readonly kind: 'availability'; readonly keep: (item: T) => boolean }
  | { readonly kind: 'policy'; readonly rule: PolicyRule; readonly keep: (item: T) => boolean }
  | { readonly kind: 'preference'; readonly rule: PreferenceRule; readonly keep: (item: T) => boolean };

/** Does a provider match a name from a request or guardrail (id or display name, any case)? */
export function providerMatches(provider: CatalogProvider, names: Iterable<string>): boolean {
  const id = provider.id.toLowerCase();
  const display = provider.name.toLowerCase();
  for (const name of names) {
    const n = name.trim().toLowerCase();
    if (n === id || n === display) return true;
  }
  return false;
}

function modelIn(model: CatalogModel, set: ReadonlySet<string>): boolean {
  return set.has(model.canonicalSlug) || set.has(model.slug);
}

export function modelStages(policy: RoutingPolicy, prefs: ProviderPreferences): Stage<CatalogModel>[] {
  const allowed = policy.allowedModels;
  return [
    { kind: 'policy', rule: 'allowed_models', keep: (m) => allowed === null || modelIn(m, allowed) },
    { kind: 'policy', rule: 'ignored_models', keep: (m) => !modelIn(m, policy.ignoredModels) },
    {
      kind: 'preference',
      rule: 'enforce_distillable_text',
      keep: (m) => !prefs.enforceDistillableText || m.distillable,
    },
  ];
}

/** USD per million tokens (prompt/completion) or per unit, with a tolerance for float noise. */
function withinPrice(endpoint: CatalogEndpoint, prefs: ProviderPreferences): boolean {
  const max = prefs.maxPrice;
  if (max === null) return true;
  const above = (actual: number, cap: number | undefined) => cap !== undefined && actual > cap * (1 + 1e-9) + 1e-12;
  const p = endpoint.pricing;
  return !(
    above(p.prompt * 1e6, max.prompt) ||
    above(p.completion * 1e6, max.completion) ||
    above(p.request ?? 0, max.request) ||
    above(p.image ?? 0, max.image) ||
    above(p.audio ?? 0, max.audio)
  );
}

export function endpointStages(
  policy: RoutingPolicy,
  prefs: ProviderPreferences,
  requestParameters: Iterable<string>,
): Stage<Entry>[] {
  const checked = prefs.requireParameters ? [...requestParameters].filter((p) => KNOWN_PARAMETERS.includes(p)) : [];
  const allowedProviders = policy.allowedProviders;
  const { only, ignore, order, quantizations } = prefs;
  return [
    { kind: 'availability', keep: (e) => e.provider.available },
    {
      kind: 'policy',
      rule: 'allowed_providers',
      keep: (e) => allowedProviders === null || providerMatches(e.provider, allowedProviders),
    },
    { kind: 'policy', rule: 'ignored_providers', keep: (e) => !providerMatches(e.provider, policy.ignoredProviders) },
    { kind: 'policy', rule: 'zdr', keep: (e) => !policy.zdrGroups.has(e.model.zdrGroup) || e.provider.zdr },
    { kind: 'preference', rule: 'only', keep: (e) => only === null || providerMatches(e.provider, only) },
    { kind: 'preference', rule: 'ignore', keep: (e) => ignore === null || !providerMatches(e.provider, ignore) },
    { kind: 'preference', rule: 'zdr', keep: (e) => !prefs.zdr || e.provider.zdr },
    {
      kind: 'preference',
      rule: 'data_collection',
      keep: (e) => prefs.dataCollection !== 'deny' || e.provider.dataCollection === 'deny',
    },
    {
      kind: 'preference',
      rule: 'quantizations',
      keep: (e) => quantizations === null || quantizations.includes(e.endpoint.quantization),
    },
    { kind: 'preference', rule: 'max_price', keep: (e) => withinPrice(e.endpoint, prefs) },
    {
      kind: 'preference',
      rule: 'require_parameters',
      keep: (e) => !prefs.requireParameters || checked.every((p) => e.endpoint.supportedParameters.includes(p)),
    },
    {
      kind: 'preference',
      rule: 'allow_fallbacks',
      keep: (e) => prefs.allowFallbacks || order === null || providerMatches(e.provider, order),
    },
  ];
}

/**
 * The stages of a request without provider preferences (the usual case) depend on the policy
 * alone (require_parameters is off, so the request's parameters play no part): built once per
 * policy object and shared, instead of fifteen closures per call.
 */
const defaultStages = new WeakMap<RoutingPolicy, { models: Stage<CatalogModel>[]; endpoints: Stage<Entry>[] }>();

export function stagesFor(
  policy: RoutingPolicy,
  prefs: ProviderPreferences,
  requestParameters: Iterable<string>,
): { models: readonly Stage<CatalogModel>[]; endpoints: readonly Stage<Entry>[] } {
  if (prefs !== DEFAULT_PREFERENCES)
    return { models: modelStages(policy, prefs), endpoints: endpointStages(policy, prefs, requestParameters) };
  let cached = defaultStages.get(policy);
  if (cached === undefined) {
    cached = { models: modelStages(policy, prefs), endpoints: endpointStages(policy, prefs, []) };
    defaultStages.set(policy, cached);
  }
  return cached;
}
