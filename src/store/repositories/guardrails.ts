import type { Kysely, Selectable } from 'kysely';
import type { Database } from '../schema.js';
import type { GuardrailsTable } from '../schema-guardrails.js';
import type {
  BuiltinFilterEntry,
  CustomFilterEntry,
  GuardrailPatch,
  GuardrailRecord,
  GuardrailRepository,
  KeyAssignmentRecord,
  MemberAssignmentRecord,
} from '../../domain/guardrails/types.js';
import { countRows, fromFlag, fromJson, toFlag, toJson } from './convert.js';

/** Nullable booleans keep their null: integer 0/1 or NULL. */
const toTri = (value: boolean | null): number | null => (value === null ? null : toFlag(value));
const fromTri = (value: number | boolean | null): boolean | null => (value === null ? null : fromFlag(value));

function toRecord(row: Selectable<GuardrailsTable>): GuardrailRecord {
  return {
    id: row.id,
    workspaceId: row.workspace_id,
    name: row.name,
    description: row.description,
    allowedModels: fromJson<string[]>(row.allowed_models),
    allowedProviders: fromJson<string[]>(row.allowed_providers),
    ignoredModels: fromJson<string[]>(row.ignored_models),
    ignoredProviders: fromJson<string[]>(row.ignored_providers),
    limitUsd: row.limit_usd,
    requestsPerMinute: row.requests_per_minute,
    tokensPerMinute: row.tokens_per_minute === null ? null : Number(row.tokens_per_minute),
    resetInterval: row.reset_interval,
    enforceZdr: fromTri(row.enforce_zdr),
    zdr: {
      vendor_a: fromTri(row.enforce_zdr_vendor_a),
      vendor_b: fromTri(row.enforce_zdr_vendor_b),
      vendor_c: fromTri(row.enforce_zdr_vendor_c),
      vendor_d: fromTri(row.enforce_zdr_vendor_d),
      other: fromTri(row.enforce_zdr_other),
    },
    contentFilterBuiltins: fromJson<BuiltinFilterEntry[]>(row.content_filter_builtins),
    contentFilters: fromJson<CustomFilterEntry[]>(row.content_filters),
    includeByokInBudgets: fromFlag(row.include_byok_in_budgets),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

function toColumns(patch: GuardrailPatch): Partial<GuardrailsTable> {
  const c: Partial<GuardrailsTable> = {};
  if (patch.name !== undefined) c.name = patch.name;
  if (patch.description !== undefined) c.description = patch.description;
  if (patch.allowedModels !== undefined) c.allowed_models = toJson(patch.allowedModels);
  if (patch.allowedProviders !== undefined) c.allowed_providers = toJson(patch.allowedProviders);
  if (patch.ignoredModels !== undefined) c.ignored_models = toJson(patch.ignoredModels);
  if (patch.ignoredProviders !== undefined) c.ignored_providers = toJson(patch.ignoredProviders);
  if (patch.limitUsd !== undefined) c.limit_usd = patch.limitUsd;
  if (patch.requestsPerMinute !== undefined) c.requests_per_minute = patch.requestsPerMinute;
  if (patch.tokensPerMinute !== undefined) c.tokens_per_minute = patch.tokensPerMinute;
  if (patch.resetInterval !== undefined) c.reset_interval = patch.resetInterval;
  if (patch.enforceZdr !== undefined) c.enforce_zdr = toTri(patch.enforceZdr);
  const zdr = patch.zdr ?? {};
  if (zdr.vendor_a !== undefined) c.enforce_zdr_vendor_a = toTri(zdr.vendor_a);
  if (zdr.vendor_b !== undefined) c.enforce_zdr_vendor_b = toTri(zdr.vendor_b);
  if (zdr.vendor_c !== undefined) c.enforce_zdr_vendor_c = toTri(zdr.vendor_c);
  if (zdr.vendor_d !== undefined) c.enforce_zdr_vendor_d = toTri(zdr.vendor_d);
  if (zdr.other !== undefined) c.enforce_zdr_other = toTri(zdr.other);
  if (patch.contentFilterBuiltins !== undefined) c.content_filter_builtins = toJson(patch.contentFilterBuiltins);
  if (patch.contentFilters !== undefined) c.content_filters = toJson(patch.contentFilters);
  if (patch.includeByokInBudgets !== undefined) c.include_byok_in_budgets = toFlag(patch.includeByokInBudgets);
  return c;
}

function toRow(g: GuardrailRecord): GuardrailsTable {
  return {
    id: g.id,
    workspace_id: g.workspaceId,
    name: g.name,
    description: g.description,
    allowed_models: toJson(g.allowedModels),
    allowed_providers: toJson(g.allowedProviders),
    ignored_models: toJson(g.ignoredModels),
    ignored_providers: toJson(g.ignoredProviders),
    limit_usd: g.limitUsd,
    requests_per_minute: g.requestsPerMinute,
    tokens_per_minute: g.tokensPerMinute,
    reset_interval: g.resetInterval,
    enforce_zdr: toTri(g.enforceZdr),
    enforce_zdr_vendor_a: toTri(g.zdr.vendor_a),
    enforce_zdr_vendor_b: toTri(g.zdr.vendor_b),
    enforce_zdr_vendor_c: toTri(g.zdr.vendor_c),
    enforce_zdr_vendor_d: toTri(g.zdr.vendor_d),
    enforce_zdr_other: toTri(g.zdr.other),
    content_filter_builtins: toJson(g.contentFilterBuiltins),
    content_filters: toJson(g.contentFilters),
    include_byok_in_budgets: toFlag(g.includeByokInBudgets),
    created_at: g.createdAt,
    updated_at: g.updatedAt,
  };
}

export function createGuardrailRepository(db: Kysely<Database>): GuardrailRepository {
  const keyAssignments = () =>
    db.selectFrom('guardrail_key_assignments as a').innerJoin('api_keys as k', 'k.hash', 'a.key_hash');

  const toKeyAssignment = (r: {
    id: string;
    guardrail_id: string;
    key_hash: string;
    label: string;
    name: string;
    assigned_by: string | null;
    created_at: string;
  }): KeyAssignmentRecord => ({
    id: r.id,
    guardrailId: r.guardrail_id,
    keyHash: r.key_hash,
    keyLabel: r.label,
    keyName: r.name,
    assignedBy: r.assigned_by,
    createdAt: r.created_at,
  });

  const toMemberAssignment = (r: {
    id: string;
    guardrail_id: string;
    user_id: string;
    assigned_by: string | null;
    created_at: string;
  }): MemberAssignmentRecord => ({
    id: r.id,
    guardrailId: r.guardrail_id,
    userId: r.user_id,
    assignedBy: r.assigned_by,
    createdAt: r.created_at,
  });

  return {
    async insert(g) {
      const row = await db.insertInto('guardrails').values(toRow(g)).returningAll().executeTakeFirstOrThrow();
      return toRecord(row);
    },
    async insertIfAbsent(g) {
      await db
        .insertInto('guardrails')
        .values(toRow(g))
        .onConflict((oc) => oc.column('id').doNothing())
        .execute();
      const row = await db.selectFrom('guardrails').selectAll().where('id', '=', g.id).executeTakeFirstOrThrow();
      return toRecord(row);
    },
    async findById(id) {
      const row = await db.selectFrom('guardrails').selectAll().where('id', '=', id).executeTakeFirst();
      return row === undefined ? null : toRecord(row);
    },
    async list(workspaceId, page) {
      const base = db.selectFrom('guardrails').where('workspace_id', '=', workspaceId);
      const [rows, count] = await Promise.all([
        base.selectAll().orderBy('created_at').orderBy('id').offset(page.offset).limit(page.limit).execute(),
        countRows(base),
      ]);
      return { rows: rows.map(toRecord), total: count };
    },
    async update(id, patch, now) {
      const row = await db
        .updateTable('guardrails')
        .set({ ...toColumns(patch), updated_at: now })
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirst();
      return row === undefined ? null : toRecord(row);
    },
    async delete(id) {
      const result = await db.deleteFrom('guardrails').where('id', '=', id).executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },

    async listKeyAssignments(guardrailId, page) {
      const base = guardrailId === null ? keyAssignments() : keyAssignments().where('a.guardrail_id', '=', guardrailId);
      const [rows, count] = await Promise.all([
        base
          .select(['a.id', 'a.guardrail_id', 'a.key_hash', 'k.label', 'k.name', 'a.assigned_by', 'a.created_at'])
          .orderBy('a.created_at')
          .orderBy('a.id')
          .offset(page.offset)
          .limit(page.limit)
          .execute(),
        countRows(base),
      ]);
      return { rows: rows.map(toKeyAssignment), total: count };
    },
    async assignKeys(rows) {
      let changed = 0;
      for (const r of rows) {
        const existing = await db
          .selectFrom('guardrail_key_assignments')
          .select('guardrail_id')
          .where('key_hash', '=', r.target)
          .executeTakeFirst();
        if (existing?.guardrail_id === r.guardrailId) continue;
        const values = { id: r.id, guardrail_id: r.guardrailId, assigned_by: r.assignedBy, created_at: r.createdAt };
        await db
          .insertInto('guardrail_key_assignments')
          .values({ ...values, key_hash: r.target })
          .onConflict((oc) => oc.column('key_hash').doUpdateSet(values))
          .execute();
        changed += 1;
      }
      return changed;
    },
    async unassignKeys(guardrailId, keyHashes) {
      if (keyHashes.length === 0) return 0;
      const result = await db
        .deleteFrom('guardrail_key_assignments')
        .where('guardrail_id', '=', guardrailId)
        .where('key_hash', 'in', keyHashes)
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },
    async guardrailOfKey(keyHash) {
      const row = await db
        .selectFrom('guardrails')
        .selectAll('guardrails')
        .innerJoin('guardrail_key_assignments as a', 'a.guardrail_id', 'guardrails.id')
        .where('a.key_hash', '=', keyHash)
        .executeTakeFirst();
      return row === undefined ? null : toRecord(row);
    },

    async listMemberAssignments(guardrailId, page) {
      const all = db.selectFrom('guardrail_member_assignments');
      const base = guardrailId === null ? all : all.where('guardrail_id', '=', guardrailId);
      const [rows, count] = await Promise.all([
        base.selectAll().orderBy('created_at').orderBy('id').offset(page.offset).limit(page.limit).execute(),
        countRows(base),
      ]);
      return { rows: rows.map(toMemberAssignment), total: count };
    },
    async assignMembers(rows) {
      let changed = 0;
      for (const r of rows) {
        const existing = await db
          .selectFrom('guardrail_member_assignments')
          .select('guardrail_id')
          .where('user_id', '=', r.target)
          .executeTakeFirst();
        if (existing?.guardrail_id === r.guardrailId) continue;
        const values = { id: r.id, guardrail_id: r.guardrailId, assigned_by: r.assignedBy, created_at: r.createdAt };
        await db
          .insertInto('guardrail_member_assignments')
          .values({ ...values, user_id: r.target })
          .onConflict((oc) => oc.column('user_id').doUpdateSet(values))
          .execute();
        changed += 1;
      }
      return changed;
    },
    async unassignMembers(guardrailId, userIds) {
      if (userIds.length === 0) return 0;
      const result = await db
        .deleteFrom('guardrail_member_assignments')
        .where('guardrail_id', '=', guardrailId)
        .where('user_id', 'in', userIds)
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },
    async guardrailOfMember(userId) {
      const row = await db
        .selectFrom('guardrails')
        .selectAll('guardrails')
        .innerJoin('guardrail_member_assignments as a', 'a.guardrail_id', 'guardrails.id')
        .where('a.user_id', '=', userId)
        .executeTakeFirst();
      return row === undefined ? null : toRecord(row);
    },
  };
}
