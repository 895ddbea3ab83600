import type { Kysely, Selectable } from 'kysely';
import type { Database, WorkspaceMembersTable, WorkspacesTable } from '../schema.js';
import type {
  WorkspaceMemberRecord,
  WorkspacePatch,
  WorkspaceRecord,
  WorkspaceRepository,
} from '../../domain/workspaces/types.js';
import { countRows, fromFlag, fromJson, toFlag, toJson } from './convert.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function toRecord(row: Selectable<WorkspacesTable>): WorkspaceRecord {
  return {
    id: row.id,
    slug: row.slug,
    name: row.name,
    description: row.description,
    isDefault: fromFlag(row.is_default),
    defaultTextModel: row.default_text_model,
    defaultImageModel: row.default_image_model,
    defaultProviderSort: row.default_provider_sort,
    disabledServerTools: fromJson<string[]>(row.disabled_server_tools),
    ioLoggingApiKeyIds: fromJson<number[]>(row.io_logging_api_key_ids),
    ioLoggingSamplingRate: row.io_logging_sampling_rate,
    isDataDiscountLoggingEnabled: fromFlag(row.is_data_discount_logging_enabled),
    isObservabilityBroadcastEnabled: fromFlag(row.is_observability_broadcast_enabled),
    isObservabilityIoLoggingEnabled: fromFlag(row.is_observability_io_logging_enabled),
    includeByokInBudgets: fromFlag(row.include_byok_in_budgets),
    createdBy: row.created_by,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

function toColumns(patch: WorkspacePatch): Partial<WorkspacesTable> {
  const c: Partial<WorkspacesTable> = {};
  if (patch.slug !== undefined) c.slug = patch.slug;
  if (patch.name !== undefined) c.name = patch.name;
  if (patch.description !== undefined) c.description = patch.description;
  if (patch.defaultTextModel !== undefined) c.default_text_model = patch.defaultTextModel;
  if (patch.defaultImageModel !== undefined) c.default_image_model = patch.defaultImageModel;
  if (patch.defaultProviderSort !== undefined) c.default_provider_sort = patch.defaultProviderSort;
  if (patch.disabledServerTools !== undefined) c.disabled_server_tools = toJson(patch.disabledServerTools);
  if (patch.ioLoggingApiKeyIds !== undefined) c.io_logging_api_key_ids = toJson(patch.ioLoggingApiKeyIds);
  if (patch.ioLoggingSamplingRate !== undefined) c.io_logging_sampling_rate = patch.ioLoggingSamplingRate;
  if (patch.isDataDiscountLoggingEnabled !== undefined)
    c.is_data_discount_logging_enabled = toFlag(patch.isDataDiscountLoggingEnabled);
  if (patch.isObservabilityBroadcastEnabled !== undefined)
    c.is_observability_broadcast_enabled = toFlag(patch.isObservabilityBroadcastEnabled);
  if (patch.isObservabilityIoLoggingEnabled !== undefined)
    c.is_observability_io_logging_enabled = toFlag(patch.isObservabilityIoLoggingEnabled);
  if (patch.includeByokInBudgets !== undefined) c.include_byok_in_budgets = toFlag(patch.includeByokInBudgets);
  return c;
}

function toMember(row: Selectable<WorkspaceMembersTable>): WorkspaceMemberRecord {
  return { id: row.id, workspaceId: row.workspace_id, userId: row.user_id, role: row.role, createdAt: row.created_at };
}

export function createWorkspaceRepository(db: Kysely<Database>): WorkspaceRepository {
  return {
    async insert(w) {
      const row = await db
        .insertInto('workspaces')
        .values({
          id: w.id,
          is_default: toFlag(w.isDefault),
          created_by: w.createdBy,
          created_at: w.createdAt,
          updated_at: w.updatedAt,
          slug: w.slug,
          name: w.name,
          description: w.description,
          default_text_model: w.defaultTextModel,
          default_image_model: w.defaultImageModel,
          default_provider_sort: w.defaultProviderSort,
          disabled_server_tools: toJson(w.disabledServerTools),
          io_logging_api_key_ids: toJson(w.ioLoggingApiKeyIds),
          io_logging_sampling_rate: w.ioLoggingSamplingRate,
          is_data_discount_logging_enabled: toFlag(w.isDataDiscountLoggingEnabled),
          is_observability_broadcast_enabled: toFlag(w.isObservabilityBroadcastEnabled),
          is_observability_io_logging_enabled: toFlag(w.isObservabilityIoLoggingEnabled),
          include_byok_in_budgets: toFlag(w.includeByokInBudgets),
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      return toRecord(row);
    },
    async findByIdOrSlug(ref) {
      const column = UUID.test(ref) ? 'id' : 'slug';
      const value = column === 'id' ? ref.toLowerCase() : ref;
      const row = await db.selectFrom('workspaces').selectAll().where(column, '=', value).executeTakeFirst();
      return row === undefined ? null : toRecord(row);
    },
    async findDefault() {
      const row = await db.selectFrom('workspaces').selectAll().where('is_default', '=', 1).executeTakeFirst();
      return row === undefined ? null : toRecord(row);
    },
    async list(page) {
      const [rows, count] = await Promise.all([
        db
          .selectFrom('workspaces')
          .selectAll()
          .orderBy('is_default', 'desc')
          .orderBy('created_at')
          .orderBy('id')
          .offset(page.offset)
          .limit(page.limit)
          .execute(),
        countRows(db.selectFrom('workspaces')),
      ]);
      return { rows: rows.map(toRecord), total: count };
    },
    async update(id, patch, now) {
      const row = await db
        .updateTable('workspaces')
        .set({ ...toColumns(patch), updated_at: now })
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirst();
      return row === undefined ? null : toRecord(row);
    },
    async delete(id) {
      const result = await db.deleteFrom('workspaces').where('id', '=', id).executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },
    async listMembers(workspaceId, page) {
      const base = db.selectFrom('workspace_members').where('workspace_id', '=', workspaceId);
      const [rows, count] = await Promise.all([
        base.selectAll().orderBy('created_at').orderBy('id').offset(page.offset).limit(page.limit).execute(),
        countRows(base),
      ]);
      return { rows: rows.map(toMember), total: count };
    },
    async upsertMembers(rows) {
      const out: WorkspaceMemberRecord[] = [];
      for (const m of rows) {
        const row = await db
          .insertInto('workspace_members')
          .values({ id: m.id, workspace_id: m.workspaceId, user_id: m.userId, role: m.role, created_at: m.createdAt })
          .onConflict((oc) => oc.columns(['workspace_id', 'user_id']).doUpdateSet({ role: m.role }))
          .returningAll()
          .executeTakeFirstOrThrow();
        out.push(toMember(row));
      }
      return out;
    },
    async removeMembers(workspaceId, userIds) {
      if (userIds.length === 0) return 0;
      const result = await db
        .deleteFrom('workspace_members')
        .where('workspace_id', '=', workspaceId)
        .where('user_id', 'in', userIds)
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },
    async isMember(workspaceId, userId) {
      const row = await db
        .selectFrom('workspace_members')
        .select('id')
        .where('workspace_id', '=', workspaceId)
        .where('user_id', '=', userId)
        .executeTakeFirst();
      return row !== undefined;
    },
    async rolesOf(userId) {
      const rows = await db
        .selectFrom('workspace_members')
        .select(['workspace_id', 'role'])
        .where('user_id', '=', userId)
        .execute();
      return rows.map((r) => ({ workspaceId: r.workspace_id, role: r.role }));
    },
  };
}
