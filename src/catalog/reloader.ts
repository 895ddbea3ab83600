/**
 * Re-reads the catalog file (SWITCHYARD_CONFIG) into a CatalogHolder. A file that does not load
 * changes nothing: the running catalog stays, and the outcome lists every problem as
 * `file:line: path: message`. Reloads run one at a time, in the order they were asked for.
 */
import type { Env } from './build-catalog.js';
import type { CatalogHolder } from './holder.js';
import type { Catalog } from './types.js';
import { CatalogConfigError, loadCatalog } from './load-catalog.js';

export type ReloadOutcome =
  | {
      readonly ok: true;
      /** The file read, or `built-in`. */
      readonly source: string;
      readonly models: number;
      readonly providers: number;
      readonly addedModels: readonly string[];
      readonly removedModels: readonly string[];
      /** Non-fatal findings (a provider skipped for an unset key variable …). */
      readonly warnings: readonly string[];
    }
  | {
      readonly ok: false;
      readonly source: string;
      /** `file:line: path: message`, one per problem. */
      readonly errors: readonly string[];
    };

export interface CatalogReloaderOptions {
  readonly holder: CatalogHolder;
  /** The config file; unset or empty: the built-in demo catalog. */
  readonly path?: string | null;
  readonly env: Env;
}

export class CatalogReloader {
  private queue: Promise<unknown> = Promise.resolve();

  constructor(private readonly options: CatalogReloaderOptions) {}

  reload(): Promise<ReloadOutcome> {
    const run = this.queue.then(() => this.reloadNow());
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async reloadNow(): Promise<ReloadOutcome> {
    const checked = await checkCatalogFile(this.options.path ?? undefined, this.options.env);
    if (!checked.ok) return checked.outcome;
    const change = this.options.holder.replace(checked.catalog);
    return {
      ok: true,
      source: checked.source,
      models: change.next.models.length,
      providers: change.next.providers.length,
      addedModels: change.addedModels,
      removedModels: change.removedModels,
      warnings: checked.catalog.warnings,
    };
  }
}

type Checked = { ok: true; source: string; catalog: Catalog } | { ok: false; outcome: ReloadOutcome };

/** Loads and validates a catalog file without using it (`switchyard catalog check`, and every reload). */
export async function checkCatalogFile(path: string | undefined, env: Env): Promise<Checked> {
  const source = path === undefined || path.trim() === '' ? 'built-in' : path;
  try {
    const loaded = await loadCatalog({ path, env });
    return { ok: true, source: loaded.source, catalog: loaded.catalog };
  } catch (error) {
    if (!(error instanceof CatalogConfigError)) throw error;
    return { ok: false, outcome: { ok: false, source, errors: error.lines() } };
  }
}
