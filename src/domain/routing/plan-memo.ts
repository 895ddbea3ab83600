/**
 * The part of a routing plan that depends only on the catalog snapshot, the guardrail policy and
 * the requested models, for a request with the default provider preferences: the endpoints the
 * stages keep and, with every one of them healthy, their ordered candidates. Kept per snapshot and
 * policy object — a catalog reload or a policy change brings new objects, so a new plan is built,
 * and the old ones go with their keys — and at most MAX_SHAPES requested-model lists per pair.
 * Health changes between calls, so the caller checks it on every call.
 */
import type { Catalog } from '../../catalog/index.js';
import type { Entry } from './stages.js';
import type { RouteCandidate, RoutingPolicy } from './types.js';

export interface KeptPlan {
  /** What the stages kept, in the order they left it. */
  readonly entries: readonly Entry[];
  /** Those entries ordered as when every endpoint is healthy; frozen, shared by the calls. */
  readonly allHealthy: readonly RouteCandidate[];
}

/** A full set is emptied rather than grown: the requested-model lists come from the clients. */
const MAX_SHAPES = 64;

interface Shapes {
  /** By the one requested model (the usual `model` without `models`). */
  readonly single: Map<string, KeptPlan>;
  /** By the requested list as JSON. */
  readonly multi: Map<string, KeptPlan>;
}

const kept = new WeakMap<Catalog, WeakMap<RoutingPolicy, Shapes>>();

function shapesOf(catalog: Catalog, policy: RoutingPolicy): Shapes {
  let byPolicy = kept.get(catalog);
  if (byPolicy === undefined) {
    byPolicy = new WeakMap();
    kept.set(catalog, byPolicy);
  }
  let shapes = byPolicy.get(policy);
  if (shapes === undefined) {
    shapes = { single: new Map(), multi: new Map() };
    byPolicy.set(policy, shapes);
  }
  return shapes;
}

/** Where a requested-model list's plan is kept; null for an empty list. */
function slotOf(shapes: Shapes, requested: readonly string[]): { map: Map<string, KeptPlan>; key: string } | null {
  if (requested.length === 0) return null;
  if (requested.length === 1) return { map: shapes.single, key: requested[0] as string };
  return { map: shapes.multi, key: JSON.stringify(requested) };
}

export function keptPlan(catalog: Catalog, policy: RoutingPolicy, requested: readonly string[]): KeptPlan | undefined {
  const slot = slotOf(shapesOf(catalog, policy), requested);
  return slot?.map.get(slot.key);
}

export function keepPlan(options: {
  catalog: Catalog;
  policy: RoutingPolicy;
  requested: readonly string[];
  plan: KeptPlan;
}): void {
  const slot = slotOf(shapesOf(options.catalog, options.policy), options.requested);
  if (slot === null) return;
  if (slot.map.size >= MAX_SHAPES) slot.map.clear();
  slot.map.set(slot.key, options.plan);
}
