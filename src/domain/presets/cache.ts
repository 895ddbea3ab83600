import type { ChangeFeed } from '../common/changes.js';
import type { ResolvedPreset } from './types.js';

/** What the preset cache and service use of the change feed (topic `presets`, id = preset id). */
export type PresetChanges = Pick<ChangeFeed, 'publish' | 'subscribe' | 'state' | 'refresh'>;

export interface PresetCacheOptions {
  load(workspaceId: string, slug: string): Promise<ResolvedPreset | null>;
  /** Without a live change feed, entries are re-read after this long. */
  revalidateAfterMs: number;
  /**
   * Notifications of writes by other processes and replicas; while live, entries are trusted until
   * a notification drops them. Its refresh() is called before every lookup (SQLite data_version).
   */
  changes?: PresetChanges;
  now?: () => number;
  maxEntries?: number;
}

interface Entry {
  value: ResolvedPreset | null;
  loadedAt: number;
}

/**
 * Resolved presets by workspace and slug, so model calls do not read the database each time.
 * Every preset write in this process invalidates; other processes' writes arrive through the
 * change feed, or (feed down or absent) by bounded revalidation. Unknown
 * slugs are cached too (as null) and dropped on every invalidation, since a new preset's id is
 * not known to the entries that missed it.
 */
export class PresetCache {
  private readonly entries = new Map<string, Entry>();
  private readonly loading = new Map<string, Promise<ResolvedPreset | null>>();
  /** Bumped on every invalidation; a load that started before one is returned but not kept. */
  private generation = 0;

  constructor(private readonly options: PresetCacheOptions) {
    options.changes?.subscribe('presets', (id) => this.invalidate(id));
  }

  async get(workspaceId: string, slug: string): Promise<ResolvedPreset | null> {
    this.options.changes?.refresh();
    const key = `${workspaceId}\n${slug}`;
    const hit = this.entries.get(key);
    if (hit !== undefined && this.fresh(hit)) return hit.value;
    const pending = this.loading.get(key);
    if (pending !== undefined) return pending;
    const generation = this.generation;
    const load = this.options
      .load(workspaceId, slug)
      .then((value) => {
        if (generation === this.generation) {
          if (this.entries.size >= (this.options.maxEntries ?? 10_000)) this.entries.clear();
          this.entries.set(key, { value, loadedAt: this.now() });
        }
        return value;
      })
      .finally(() => this.loading.delete(key));
    this.loading.set(key, load);
    return load;
  }

  /** Drops the preset with this id (and every cached miss); `null` drops everything. */
  invalidate(presetId: string | null): void {
    this.generation += 1;
    this.loading.clear();
    if (presetId === null) {
      this.entries.clear();
      return;
    }
    for (const [key, entry] of this.entries) {
      if (entry.value === null || entry.value.preset.id === presetId) this.entries.delete(key);
    }
  }

  private fresh(entry: Entry): boolean {
    if (this.options.changes?.state() === 'live') return true;
    return this.now() - entry.loadedAt < this.options.revalidateAfterMs;
  }

  private now(): number {
    return (this.options.now ?? Date.now)();
  }
}
