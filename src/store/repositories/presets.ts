import type { Kysely, Selectable } from 'kysely';
import type { Database } from '../schema.js';
import type { PresetsTable, PresetVersionsTable } from '../schema-presets.js';
import type {
  PresetConfig,
  PresetPatch,
  PresetRecord,
  PresetRepository,
  PresetVersionRecord,
} from '../../domain/presets/types.js';
import { countRows } from './convert.js';

function toRecord(row: Selectable<PresetsTable>): PresetRecord {
  return {
    id: row.id,
    workspaceId: row.workspace_id,
    slug: row.slug,
    name: row.name,
    description: row.description,
    status: row.status,
    statusUpdatedAt: row.status_updated_at,
    creatorUserId: row.creator_user_id,
    designatedVersionId: row.designated_version_id,
    latestVersion: Number(row.latest_version),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

function toRow(p: PresetRecord): PresetsTable {
  return {
    id: p.id,
    workspace_id: p.workspaceId,
    slug: p.slug,
    name: p.name,
    description: p.description,
    status: p.status,
    status_updated_at: p.statusUpdatedAt,
    creator_user_id: p.creatorUserId,
    designated_version_id: p.designatedVersionId,
    latest_version: p.latestVersion,
    created_at: p.createdAt,
    updated_at: p.updatedAt,
  };
}

function parseConfig(text: string): PresetConfig {
  const value: unknown = JSON.parse(text);
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as PresetConfig) : {};
}

function toVersion(row: Selectable<PresetVersionsTable>): PresetVersionRecord {
  return {
    id: row.id,
    presetId: row.preset_id,
    version: Number(row.version),
    config: parseConfig(row.config),
    systemPrompt: row.system_prompt,
    creatorId: row.creator_id,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

function toColumns(patch: PresetPatch): Partial<PresetsTable> {
  const c: Partial<PresetsTable> = {};
  if (patch.name !== undefined) c.name = patch.name;
  if (patch.description !== undefined) c.description = patch.description;
  if (patch.status !== undefined) c.status = patch.status;
  if (patch.statusUpdatedAt !== undefined) c.status_updated_at = patch.statusUpdatedAt;
  if (patch.designatedVersionId !== undefined) c.designated_version_id = patch.designatedVersionId;
  return c;
}

export function createPresetRepository(db: Kysely<Database>): PresetRepository {
  const findBySlug = async (workspaceId: string, slug: string) => {
    const row = await db
      .selectFrom('presets')
      .selectAll()
      .where('workspace_id', '=', workspaceId)
      .where('slug', '=', slug)
      .executeTakeFirst();
    return row === undefined ? null : toRecord(row);
  };
  const findVersionById = async (id: string) => {
    const row = await db.selectFrom('preset_versions').selectAll().where('id', '=', id).executeTakeFirst();
    return row === undefined ? null : toVersion(row);
  };

  return {
    async insertIfAbsent(p) {
      await db
        .insertInto('presets')
        .values(toRow(p))
        .onConflict((oc) => oc.columns(['workspace_id', 'slug']).doNothing())
        .execute();
      const stored = await findBySlug(p.workspaceId, p.slug);
      if (stored === null) throw new Error('preset vanished right after its insert');
      return stored;
    },
    findBySlug,
    async findResolved(workspaceId, slug) {
      const preset = await findBySlug(workspaceId, slug);
      if (preset === null) return null;
      const version = preset.designatedVersionId === null ? null : await findVersionById(preset.designatedVersionId);
      return { preset, version };
    },
    async list(workspaceId, page) {
      const base = db.selectFrom('presets').where('workspace_id', '=', workspaceId);
      const [rows, count] = await Promise.all([
        base
          .selectAll()
          .orderBy('updated_at', 'desc')
          .orderBy('id', 'desc')
          .offset(page.offset)
          .limit(page.limit)
          .execute(),
        countRows(base),
      ]);
      return { rows: rows.map(toRecord), total: count };
    },
    async nextVersion(presetId) {
      const row = await db
        .updateTable('presets')
        .set((eb) => ({ latest_version: eb('latest_version', '+', 1) }))
        .where('id', '=', presetId)
        .returning('latest_version')
        .executeTakeFirstOrThrow();
      return Number(row.latest_version);
    },
    async insertVersion(v) {
      const row = await db
        .insertInto('preset_versions')
        .values({
          id: v.id,
          preset_id: v.presetId,
          version: v.version,
          config: JSON.stringify(v.config),
          system_prompt: v.systemPrompt,
          creator_id: v.creatorId,
          created_at: v.createdAt,
          updated_at: v.updatedAt,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      return toVersion(row);
    },
    async findVersion(presetId, version) {
      const row = await db
        .selectFrom('preset_versions')
        .selectAll()
        .where('preset_id', '=', presetId)
        .where('version', '=', version)
        .executeTakeFirst();
      return row === undefined ? null : toVersion(row);
    },
    findVersionById,
    async listVersions(presetId, page) {
      const base = db.selectFrom('preset_versions').where('preset_id', '=', presetId);
      const [rows, count] = await Promise.all([
        base.selectAll().orderBy('version').offset(page.offset).limit(page.limit).execute(),
        countRows(base),
      ]);
      return { rows: rows.map(toVersion), total: count };
    },
    async update(id, patch, now) {
      const row = await db
        .updateTable('presets')
        .set({ ...toColumns(patch), updated_at: now })
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirst();
      return row === undefined ? null : toRecord(row);
    },
  };
}
