/**
 * The running catalog as an immutable snapshot behind one reference. A reload builds a whole new
 * Catalog and swaps the reference in one assignment: a model call reads `current()` once when it
 * is prepared and keeps that snapshot (its candidates hold the snapshot's objects), so calls in
 * flight finish on the catalog they started with while new calls see the new one.
 */
import type { Catalog, CatalogEndpoint, CatalogProvider } from './types.js';

/** What readers need: the snapshot to use for one request. */
export interface CatalogSource {
  current(): Catalog;
}

/** How one reload changed the endpoints, by endpoint key (`<provider id>:<upstream model>`). */
export interface CatalogChange {
  readonly previous: Catalog;
  readonly next: Catalog;
  readonly addedModels: readonly string[];
  readonly removedModels: readonly string[];
  /** Endpoint keys that no longer exist. */
  readonly removedEndpoints: readonly string[];
  /** Endpoint keys that still exist but whose provider now connects differently (URL, kind, key, availability). */
  readonly changedEndpoints: readonly string[];
  /** Every endpoint key of the new catalog. */
  readonly endpointKeys: ReadonlySet<string>;
}

export type CatalogListener = (change: CatalogChange) => void;

/** Whether two provider objects reach the same upstream the same way. */
function sameConnection(a: CatalogProvider, b: CatalogProvider): boolean {
  return (
    a.kind === b.kind &&
    a.baseUrl === b.baseUrl &&
    a.available === b.available &&
    a.getApiKey() === b.getApiKey() &&
    JSON.stringify(a.headers) === JSON.stringify(b.headers) &&
    JSON.stringify(a.azure) === JSON.stringify(b.azure)
  );
}

function endpointsByKey(catalog: Catalog): Map<string, CatalogEndpoint> {
  const out = new Map<string, CatalogEndpoint>();
  for (const model of catalog.models) for (const endpoint of model.endpoints) out.set(endpoint.key, endpoint);
  return out;
}

/** The differences between two snapshots that caches keyed by model or endpoint must act on. */
export function diffCatalogs(previous: Catalog, next: Catalog): CatalogChange {
  const before = endpointsByKey(previous);
  const after = endpointsByKey(next);
  const removedEndpoints = [...before.keys()].filter((key) => !after.has(key));
  const changedEndpoints: string[] = [];
  for (const [key, endpoint] of after) {
    const old = before.get(key);
    if (old === undefined) continue;
    const a = previous.findProvider(old.providerId);
    const b = next.findProvider(endpoint.providerId);
    if (a === undefined || b === undefined || !sameConnection(a, b)) changedEndpoints.push(key);
  }
  const oldSlugs = new Set(previous.models.map((m) => m.slug));
  const newSlugs = new Set(next.models.map((m) => m.slug));
  return {
    previous,
    next,
    addedModels: [...newSlugs].filter((slug) => !oldSlugs.has(slug)),
    removedModels: [...oldSlugs].filter((slug) => !newSlugs.has(slug)),
    removedEndpoints,
    changedEndpoints,
    endpointKeys: new Set(after.keys()),
  };
}

export class CatalogHolder implements CatalogSource {
  private snapshot: Catalog;
  private readonly listeners: CatalogListener[] = [];

  constructor(initial: Catalog) {
    this.snapshot = initial;
  }

  current(): Catalog {
    return this.snapshot;
  }

  /** Told after every swap, synchronously, before `replace` returns. Listeners must not throw. */
  onChange(listener: CatalogListener): void {
    this.listeners.push(listener);
  }

  /** Makes `next` the running catalog and tells the listeners what changed. */
  replace(next: Catalog): CatalogChange {
    const change = diffCatalogs(this.snapshot, next);
    this.snapshot = next;
    for (const listener of this.listeners) listener(change);
    return change;
  }
}
