import type { Page, PageResult } from '../common/page.js';

/** An archived preset keeps its versions but cannot be used by model calls. */
export type PresetStatus = 'active' | 'archived';

/** The stored request fields of one version (a free-form object on the wire). */
export type PresetConfig = Record<string, unknown>;

export interface PresetRecord {
  id: string;
  workspaceId: string;
  slug: string;
  name: string;
  description: string | null;
  status: PresetStatus;
  statusUpdatedAt: string | null;
  creatorUserId: string;
  /** Null only inside the transaction that creates the preset and its first version. */
  designatedVersionId: string | null;
  /** Highest version number handed out (the next version is this + 1). */
  latestVersion: number;
  createdAt: string;
  updatedAt: string;
}

export interface PresetVersionRecord {
  id: string;
  presetId: string;
  version: number;
  config: PresetConfig;
  /** Empty string when the version has no system prompt. */
  systemPrompt: string;
  creatorId: string;
  createdAt: string;
  updatedAt: string;
}

/** A preset with its designated version inline. */
export interface ResolvedPreset {
  preset: PresetRecord;
  version: PresetVersionRecord | null;
}

export interface PresetPatch {
  name?: string;
  description?: string | null;
  status?: PresetStatus;
  statusUpdatedAt?: string | null;
  designatedVersionId?: string;
}

export interface PresetRepository {
  /** Inserts unless the workspace already has a preset with that slug; returns the stored row either way. */
  insertIfAbsent(preset: PresetRecord): Promise<PresetRecord>;
  findBySlug(workspaceId: string, slug: string): Promise<PresetRecord | null>;
  /** The preset and its designated version in one read (model calls, GET /presets/{slug}). */
  findResolved(workspaceId: string, slug: string): Promise<ResolvedPreset | null>;
  /** Most recently updated first. */
  list(workspaceId: string, page: Page): Promise<PageResult<PresetRecord>>;
  /**
   * Hands out the next version number of the preset atomically (an UPDATE … RETURNING on the
   * preset row, so concurrent writers on PostgreSQL queue on the row lock instead of colliding).
   */
  nextVersion(presetId: string): Promise<number>;
  insertVersion(version: PresetVersionRecord): Promise<PresetVersionRecord>;
  findVersion(presetId: string, version: number): Promise<PresetVersionRecord | null>;
  findVersionById(id: string): Promise<PresetVersionRecord | null>;
  /** Ascending by version number. */
  listVersions(presetId: string, page: Page): Promise<PageResult<PresetVersionRecord>>;
  update(id: string, patch: PresetPatch, now: string): Promise<PresetRecord | null>;
}
