/**
 * Chooses, for one request, the ordered endpoints to try: the primary model's endpoints, then each
 * fallback model's (unless sort.partition = none), filtered by availability, guardrail policy and
 * the request's provider preferences, ordered by ordering.ts. When nothing survives, the refusal
 * names the rule that removed the last candidates.
 */
import type { Catalog, CatalogModel, ZdrGroup } from '../../catalog/index.js';
import { NO_HEALTH_DATA } from './health.js';
import { orderEntries } from './ordering.js';
import { keepPlan, keptPlan, type KeptPlan } from './plan-memo.js';
import { type Entry, type Stage, stagesFor } from './stages.js';
import type {
  HealthView,
  ProviderPreferences,
  RouteCandidate,
  RouteRefusal,
  RouteResult,
  RoutingPolicy,
} from './types.js';
import { DEFAULT_PREFERENCES } from './validate-preferences.js';

/** No guardrail restrictions. */
export const OPEN_POLICY: RoutingPolicy = Object.freeze({
  allowedModels: null,
  ignoredModels: new Set<string>(),
  allowedProviders: null,
  ignoredProviders: new Set<string>(),
  zdrGroups: new Set<ZdrGroup>(),
});

export interface PlanRouteOptions {
  readonly catalog: Catalog;
  /** The request's `model` (slug or canonical slug); optional when `models` is given. */
  readonly model?: string | null;
  /** The request's `models` fallback list, in priority order. */
  readonly models?: readonly string[] | null;
  /** Validated `provider` preferences (validateProviderPreferences); default: none. */
  readonly preferences?: ProviderPreferences;
  /** Guardrail policy; default: no restrictions. */
  readonly policy?: RoutingPolicy;
  /** Names of the request parameters present (temperature, tools …), for require_parameters. */
  readonly requestParameters?: Iterable<string>;
  /** Breaker and EWMA data; default: everything healthy, no samples. */
  readonly health?: HealthView;
}

function resolveModels(catalog: Catalog, requested: readonly string[]): CatalogModel[] | RouteRefusal {
  if (requested.length === 0) return { kind: 'missing_model' };
  const out: CatalogModel[] = [];
  for (const slug of requested) {
    const model = catalog.findModel(slug);
    if (!model) return { kind: 'unknown_model', model: slug };
    if (!out.includes(model)) out.push(model);
  }
  return out;
}

/** The items a stage keeps; the same array when it keeps them all (the usual case: no copy). */
function keptBy<T>(items: T[], stage: Stage<T>): T[] {
  for (let i = 0; i < items.length; i++) {
    if (stage.keep(items[i] as T)) continue;
    const kept = items.slice(0, i);
    for (let j = i + 1; j < items.length; j++) if (stage.keep(items[j] as T)) kept.push(items[j] as T);
    return kept;
  }
  return items;
}

/** Applies the stages in order; reports the first stage after which nothing is left. */
function applyStages<T>(items: T[], stages: readonly Stage<T>[]): { items: T[]; emptiedBy?: Stage<T>; removed: T[] } {
  let current = items;
  for (const stage of stages) {
    const kept = keptBy(current, stage);
    if (kept.length === 0) return { items: kept, emptiedBy: stage, removed: current };
    current = kept;
  }
  return { items: current, removed: [] };
}

function refusalFor<T>(stage: Stage<T>, models: readonly CatalogModel[], reasons: string[]): RouteRefusal {
  const slugs = models.map((m) => m.slug);
  if (stage.kind === 'availability') return { kind: 'no_endpoints', reasons, models: slugs };
  if (stage.kind === 'policy') return { kind: 'policy', rule: stage.rule, models: slugs };
  return { kind: 'preference', rule: stage.rule, models: slugs };
}

/** The stages' survivors ordered, as candidates; `health` decides the breaker order and flags. */
function candidatesOf(entries: readonly Entry[], prefs: ProviderPreferences, health: HealthView): RouteCandidate[] {
  let ordered = orderEntries(entries, prefs, health);
  if (!prefs.allowFallbacks && prefs.order === null) {
    // No provider fallbacks: only each model's first choice (model fallbacks still apply).
    const seen = new Set<CatalogModel>();
    ordered = ordered.filter((e) => (seen.has(e.model) ? false : (seen.add(e.model), true)));
  }
  return ordered.map((e) =>
    Object.freeze({
      model: e.model,
      endpoint: e.endpoint,
      provider: e.provider,
      healthy: health.isHealthy(e.endpoint.key),
    }),
  );
}

/** What the stages keep of the requested models' endpoints, or the refusal naming the rule that removed the last. */
function survivors(options: {
  catalog: Catalog;
  requested: readonly string[];
  policy: RoutingPolicy;
  prefs: ProviderPreferences;
  requestParameters: Iterable<string>;
}): Entry[] | RouteRefusal {
  const { catalog } = options;
  const resolved = resolveModels(catalog, options.requested);
  if (!Array.isArray(resolved)) return resolved;

  const stages = stagesFor(options.policy, options.prefs, options.requestParameters);
  const byModel = applyStages(resolved, stages.models);
  if (byModel.emptiedBy) return refusalFor(byModel.emptiedBy, resolved, []);
  const models = byModel.items;

  const entries: Entry[] = [];
  models.forEach((model, modelIndex) => {
    model.endpoints.forEach((endpoint, endpointIndex) => {
      const provider = catalog.findProvider(endpoint.providerId);
      if (provider) entries.push({ model, modelIndex, endpoint, endpointIndex, provider });
    });
  });
  const filtered = applyStages(entries, stages.endpoints);
  if (filtered.emptiedBy) {
    const reasons = [
      ...new Set(
        filtered.removed.map((e) => `provider "${e.provider.id}": ${e.provider.unavailableReason ?? 'unavailable'}`),
      ),
    ];
    return refusalFor(filtered.emptiedBy, models, reasons);
  }
  return filtered.items;
}

/**
 * A kept plan for this call's health: its shared candidates when every endpoint is healthy (with
 * the default preferences the order reads nothing else of the health), else ordered again.
 */
function fromKept(plan: KeptPlan, prefs: ProviderPreferences, health: HealthView): RouteResult {
  for (const entry of plan.entries)
    if (!health.isHealthy(entry.endpoint.key))
      return { ok: true, candidates: candidatesOf(plan.entries, prefs, health) };
  return { ok: true, candidates: plan.allHealthy };
}

export function planRoute(options: PlanRouteOptions): RouteResult {
  const { catalog } = options;
  const prefs = options.preferences ?? DEFAULT_PREFERENCES;
  const policy = options.policy ?? OPEN_POLICY;
  const health = options.health ?? NO_HEALTH_DATA;
  const requested = [...(options.model ? [options.model] : []), ...(options.models ?? [])];

  // With the default preferences the plan depends on the snapshot, the policy and the models
  // asked for alone (the request's parameters only count for require_parameters), and the health.
  const keepable = prefs === DEFAULT_PREFERENCES;
  if (keepable) {
    const plan = keptPlan(catalog, policy, requested);
    if (plan !== undefined) return fromKept(plan, prefs, health);
  }
  const entries = survivors({
    catalog,
    requested,
    policy,
    prefs,
    requestParameters: options.requestParameters ?? [],
  });
  if (!Array.isArray(entries)) return { ok: false, refusal: entries };
  if (!keepable) return { ok: true, candidates: candidatesOf(entries, prefs, health) };
  const plan: KeptPlan = {
    entries,
    allHealthy: Object.freeze(candidatesOf(entries, prefs, NO_HEALTH_DATA)),
  };
  keepPlan({ catalog, policy, requested, plan });
  return fromKept(plan, prefs, health);
}
