import type { Clock } from '../common/clock.js';
import type { WorkspaceRepository } from '../workspaces/types.js';
import { PresetCache, type PresetChanges } from './cache.js';
import type { PresetModelLookup } from './config.js';
import { CachedPresetResolver } from './resolver.js';
import { PresetService } from './service.js';
import type { PresetRepository } from './types.js';
import type { AuditRepository } from '../audit/types.js';

export { PresetService, type PresetUpdate } from './service.js';
export { PresetCache, type PresetChanges } from './cache.js';
export {
  CachedPresetResolver,
  noPresets,
  type AppliedPreset,
  type PresetApplication,
  type PresetResolver,
  type PresetTarget,
} from './resolver.js';
export { isPresetSlug, presetReference } from './reference.js';
export { mergePreset, unionTools } from './merge.js';
export { PRESET_FIELDS, PresetConfigSchema, PresetCreateBodySchema } from './config-schema.js';
export type * from './types.js';

export interface PresetModuleOptions {
  presets: PresetRepository;
  workspaces: Pick<WorkspaceRepository, 'findByIdOrSlug'>;
  catalog: PresetModelLookup;
  clock: Clock;
  transaction<T>(fn: (repos: { presets: PresetRepository; audit: AuditRepository }) => Promise<T>): Promise<T>;
  /** Without a live change feed, cached presets are re-read after this long. */
  revalidateAfterMs: number;
  /** Writes are published here and the cache subscribes (topic `presets`). */
  changes?: PresetChanges;
  log?: (msg: string, err?: unknown) => void;
}

/**
 * The preset service (management API, CLI) with a resolver for model calls, sharing one cache:
 * every write through the service invalidates it at once and is published on the change feed.
 */
export function createPresetService(options: PresetModuleOptions): PresetService & { resolver: CachedPresetResolver } {
  const cache = new PresetCache({
    load: (workspaceId, slug) => options.presets.findResolved(workspaceId, slug),
    revalidateAfterMs: options.revalidateAfterMs,
    changes: options.changes,
  });
  const service = new PresetService({
    presets: options.presets,
    workspaces: options.workspaces,
    catalog: options.catalog,
    clock: options.clock,
    transaction: (fn) => options.transaction(fn),
    changed: async (presetId) => {
      cache.invalidate(presetId);
      try {
        await options.changes?.publish('presets', presetId);
      } catch (error) {
        options.log?.('presets: change notification failed', error);
      }
    },
  });
  return Object.assign(service, { resolver: new CachedPresetResolver(cache) });
}

/** The preset service with the model-call resolver that shares its cache. */
export type Presets = ReturnType<typeof createPresetService>;
