import { sql, type Kysely, type SqlBool } from 'kysely';
import type { AnalyticsRepository, BudgetAssignee, UsageGroupBy } from '../../domain/analytics/types.js';
import type { LimitReset } from '../../domain/keys/types.js';
import type { Database } from '../schema.js';
import { fromFlag } from './convert.js';
import { toRecord } from './ledger-rows.js';

const num = (value: number | string | bigint | null): number => (value === null ? 0 : Number(value));

/** Column of the rollup tables each grouping sums by (a fixed list: never text from a request). */
const GROUP_COLUMN: Record<Exclude<UsageGroupBy, 'none'>, 'model' | 'provider_id' | 'key_hash' | 'workspace_id'> = {
  model: 'model',
  provider: 'provider_id',
  key: 'key_hash',
  workspace: 'workspace_id',
};

// The partial indexes of migration 008 are used only when a query repeats their condition
// literally, so these two conditions are written as SQL text, not bound parameters.
const FLAGGED = sql<SqlBool>`"flags" <> '[]'`;
const NOT_FLAGGED = sql<SqlBool>`"flags" = '[]'`;
const FAILED = sql<SqlBool>`"finish_reason" = 'error'`;
const NOT_FAILED = sql<SqlBool>`("finish_reason" IS NULL OR "finish_reason" <> 'error')`;
const REFUSED = sql<SqlBool>`"refusal_status" IS NOT NULL`;

export function createAnalyticsRepository(db: Kysely<Database>): AnalyticsRepository {
  return {
    async activity(query) {
      let q = db
        .selectFrom('usage_rollups_daily')
        .select((eb) => [
          'day',
          'model',
          'provider_id',
          'upstream_model',
          eb.fn.sum<number>('cost_usd').as('usage'),
          eb.fn.sum<number>('requests').as('requests'),
          eb.fn.sum<number>('prompt_tokens').as('prompt_tokens'),
          eb.fn.sum<number>('completion_tokens').as('completion_tokens'),
          eb.fn.sum<number>('reasoning_tokens').as('reasoning_tokens'),
        ])
        .where('day', '>=', query.fromDay)
        .where('day', '<', query.toDay);
      if (query.keyHash !== undefined) q = q.where('key_hash', '=', query.keyHash);
      if (query.workspaceId !== undefined) q = q.where('workspace_id', '=', query.workspaceId);
      const rows = await q
        .groupBy(['day', 'model', 'provider_id', 'upstream_model'])
        .orderBy('day', 'desc')
        .orderBy('usage', 'desc')
        .orderBy('model')
        .execute();
      return rows.map((r) => ({
        date: r.day,
        model: r.model,
        providerId: r.provider_id,
        upstreamModel: r.upstream_model,
        usageUsd: num(r.usage),
        requests: num(r.requests),
        promptTokens: num(r.prompt_tokens),
        completionTokens: num(r.completion_tokens),
        reasoningTokens: num(r.reasoning_tokens),
      }));
    },

    async listGenerations(filter, after, limit) {
      let q = db.selectFrom('generations').selectAll();
      if (filter.from !== undefined) q = q.where('created_at', '>=', filter.from);
      if (filter.to !== undefined) q = q.where('created_at', '<', filter.to);
      if (filter.keyHash !== undefined) q = q.where('key_hash', '=', filter.keyHash);
      if (filter.model !== undefined) q = q.where('model', '=', filter.model);
      if (filter.providerId !== undefined) q = q.where('provider_id', '=', filter.providerId);
      if (filter.workspaceId !== undefined) q = q.where('workspace_id', '=', filter.workspaceId);
      if (filter.sessionId !== undefined) q = q.where('session_id', '=', filter.sessionId);
      if (filter.origin !== undefined) q = q.where('origin', '=', filter.origin);
      if (filter.userAgent !== undefined) {
        // A prefix match with LIKE's wildcards escaped (the same on SQLite and PostgreSQL).
        const prefix = filter.userAgent.replace(/[\\%_]/g, (c) => `\\${c}`);
        q = q.where(sql<SqlBool>`${sql.ref('user_agent')} like ${`${prefix}%`} escape '\\'`);
      }
      if (filter.apiSurface !== undefined) q = q.where('api_type', '=', filter.apiSurface);
      if (filter.flagged !== undefined) q = q.where(filter.flagged ? FLAGGED : NOT_FLAGGED);
      // Refusals are errors too (finish_reason 'error'): `error` finds them with the upstream failures.
      if (filter.status === 'error') q = q.where(FAILED);
      else if (filter.status === 'refused') q = q.where(REFUSED);
      else if (filter.status !== undefined)
        q = q.where(NOT_FAILED).where('cancelled', '=', filter.status === 'cancelled' ? 1 : 0);
      if (filter.refusalStatus !== undefined) q = q.where(REFUSED).where('refusal_status', '=', filter.refusalStatus);
      if (after !== null)
        q = q.where((eb) => eb(eb.refTuple('created_at', 'id'), '<', eb.tuple(after.createdAt, after.id)));
      const rows = await q.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).execute();
      return rows.map(toRecord);
    },

    async usage(query) {
      // Hours from the hourly rollups; days from the daily ones (a month there is ~1/24 of the rows).
      const bucket = sql<string>`${sql.ref(query.bucket === 'hour' ? 'hour' : 'day')}`;
      const group =
        query.groupBy === 'none' ? sql<string>`'all'` : sql<string>`${sql.ref(GROUP_COLUMN[query.groupBy])}`;
      const selection = [
        bucket.as('bucket'),
        group.as('grp'),
        sql<number>`sum("cost_usd")`.as('spend'),
        sql<number>`sum("requests")`.as('requests'),
        sql<number>`sum("errors")`.as('errors'),
        sql<number>`sum("refused")`.as('refused'),
      ];
      // PostgreSQL refuses a constant in GROUP BY: ungrouped usage is grouped by bucket alone.
      const grouping = query.groupBy === 'none' ? [bucket] : [bucket, group];
      const rows =
        query.bucket === 'hour'
          ? await db
              .selectFrom('usage_rollups')
              .select(selection)
              .where('hour', '>=', query.from)
              .where('hour', '<', query.to)
              .groupBy(grouping)
              .execute()
          : await db
              .selectFrom('usage_rollups_daily')
              .select(selection)
              .where('day', '>=', query.from)
              .where('day', '<', query.to)
              .groupBy(grouping)
              .execute();
      return rows.map((r) => ({
        bucket: r.bucket,
        group: r.grp,
        spendUsd: num(r.spend),
        requests: num(r.requests),
        errors: num(r.errors),
        refused: num(r.refused),
      }));
    },

    async endpointStats(fromHour) {
      const rows = await db
        .selectFrom('usage_rollups')
        .select((eb) => [
          'model',
          'provider_id',
          'upstream_model',
          eb.fn.sum<number>('requests').as('requests'),
          eb.fn.sum<number>('errors').as('errors'),
        ])
        .where('hour', '>=', fromHour)
        .groupBy(['model', 'provider_id', 'upstream_model'])
        .execute();
      return rows.map((r) => ({
        model: r.model,
        providerId: r.provider_id,
        upstreamModel: r.upstream_model,
        requests: num(r.requests),
        errors: num(r.errors),
      }));
    },

    async keyNames(hashes) {
      const out = new Map<string, string>();
      if (hashes.length === 0) return out;
      const rows = await db
        .selectFrom('api_keys')
        .select(['hash', 'name'])
        .where('hash', 'in', [...hashes])
        .execute();
      for (const r of rows) out.set(r.hash, r.name);
      return out;
    },

    async workspaceNames(ids) {
      const out = new Map<string, string>();
      if (ids.length === 0) return out;
      const rows = await db
        .selectFrom('workspaces')
        .select(['id', 'name'])
        .where('id', 'in', [...ids])
        .execute();
      for (const r of rows) out.set(r.id, r.name);
      return out;
    },

    async limitedKeys() {
      const rows = await db
        .selectFrom('api_keys')
        .select([
          'hash',
          'name',
          'label',
          'workspace_id',
          'limit_usd',
          'limit_reset',
          'include_byok_in_limit',
          'disabled',
        ])
        .where('limit_usd', 'is not', null)
        .execute();
      return rows.map((r) => ({
        hash: r.hash,
        name: r.name,
        label: r.label,
        workspaceId: r.workspace_id,
        limitUsd: num(r.limit_usd),
        limitReset: r.limit_reset,
        includeByok: fromFlag(r.include_byok_in_limit),
        disabled: fromFlag(r.disabled),
      }));
    },

    async limitedGuardrails() {
      const rows = await db
        .selectFrom('guardrails')
        .select(['id', 'workspace_id'])
        .where('limit_usd', 'is not', null)
        .execute();
      return rows.map((r) => ({ id: r.id, workspaceId: r.workspace_id }));
    },

    async budgetAssignees(defaultGuardrailIds, max) {
      const base = (r: { id: string; name: string; limit_usd: number | null; reset_interval: LimitReset | null }) => ({
        guardrailId: r.id,
        guardrailName: r.name,
        limitUsd: num(r.limit_usd),
        resetInterval: r.reset_interval,
      });
      // Three independent reads: run concurrently (in parallel on PostgreSQL's pool).
      const [byKey, byMember, byWorkspace] = await Promise.all([
        db
          .selectFrom('guardrails as g')
          .innerJoin('guardrail_key_assignments as a', 'a.guardrail_id', 'g.id')
          .innerJoin('api_keys as k', 'k.hash', 'a.key_hash')
          .select(['g.id', 'g.name', 'g.limit_usd', 'g.reset_interval', 'k.hash', 'k.name as key_name'])
          .where('g.limit_usd', 'is not', null)
          .limit(max)
          .execute(),
        db
          .selectFrom('guardrails as g')
          .innerJoin('guardrail_member_assignments as a', 'a.guardrail_id', 'g.id')
          .leftJoin('members as m', 'm.id', 'a.user_id')
          .select(['g.id', 'g.name', 'g.limit_usd', 'g.reset_interval', 'a.user_id', 'm.email'])
          .where('g.limit_usd', 'is not', null)
          .limit(max)
          .execute(),
        defaultGuardrailIds.size === 0
          ? Promise.resolve([])
          : db
              .selectFrom('guardrails as g')
              .innerJoin('api_keys as k', 'k.workspace_id', 'g.workspace_id')
              .select(['g.id', 'g.name', 'g.limit_usd', 'g.reset_interval', 'k.hash', 'k.name as key_name'])
              .where('g.id', 'in', [...defaultGuardrailIds.keys()])
              .where('k.kind', '=', 'api')
              .where('g.limit_usd', 'is not', null)
              .limit(max)
              .execute(),
      ]);
      const out: BudgetAssignee[] = [];
      for (const r of byKey)
        out.push({ ...base(r), assigneeType: 'key', assigneeId: r.hash, assigneeLabel: r.key_name });
      for (const r of byMember)
        out.push({ ...base(r), assigneeType: 'member', assigneeId: r.user_id, assigneeLabel: r.email ?? r.user_id });
      for (const r of byWorkspace)
        out.push({ ...base(r), assigneeType: 'key', assigneeId: r.hash, assigneeLabel: r.key_name });
      return out;
    },
  };
}
