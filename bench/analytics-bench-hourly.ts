// The analytics benchmark's baseline reads (bench/analytics-bench.ts): the month reads as they
// were before the daily rollups, summed from the hourly rollups, over the same generated store.
import { sql, type Kysely } from 'kysely';
import type { AnalyticsRepository } from '../src/domain/analytics/types.js';
import type { Database } from '../src/store/schema.js';

const num = (value: number | string | bigint | null): number => (value === null ? 0 : Number(value));
const GROUP_COLUMN = { model: 'model', provider: 'provider_id', key: 'key_hash', workspace: 'workspace_id' } as const;

/** `repo` with `activity` and the daily `usage` read from `usage_rollups` (a month: 720 hours of rows). */
export function hourlyMonthReads(db: Kysely<Database>, repo: AnalyticsRepository): AnalyticsRepository {
  const day = sql<string>`substr("hour", 1, 10)`;
  return {
    ...repo,
    async activity(query) {
      let q = db
        .selectFrom('usage_rollups')
        .select((eb) => [
          day.as('date'),
          'model',
          'provider_id',
          'upstream_model',
          eb.fn.sum<number>('cost_usd').as('usage'),
          eb.fn.sum<number>('requests').as('requests'),
          eb.fn.sum<number>('prompt_tokens').as('prompt_tokens'),
          eb.fn.sum<number>('completion_tokens').as('completion_tokens'),
          eb.fn.sum<number>('reasoning_tokens').as('reasoning_tokens'),
        ])
        .where('hour', '>=', query.fromDay)
        .where('hour', '<', query.toDay);
      if (query.keyHash !== undefined) q = q.where('key_hash', '=', query.keyHash);
      if (query.workspaceId !== undefined) q = q.where('workspace_id', '=', query.workspaceId);
      const rows = await q
        .groupBy([day, 'model', 'provider_id', 'upstream_model'])
        .orderBy('date', 'desc')
        .orderBy('usage', 'desc')
        .orderBy('model')
        .execute();
      return rows.map((r) => ({
        date: r.date,
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
    async usage(query) {
      if (query.bucket === 'hour') return repo.usage(query);
      const group =
        query.groupBy === 'none' ? sql<string>`'all'` : sql<string>`${sql.ref(GROUP_COLUMN[query.groupBy])}`;
      const rows = await db
        .selectFrom('usage_rollups')
        .select((eb) => [
          day.as('bucket'),
          group.as('grp'),
          eb.fn.sum<number>('cost_usd').as('spend'),
          eb.fn.sum<number>('requests').as('requests'),
          eb.fn.sum<number>('errors').as('errors'),
          eb.fn.sum<number>('refused').as('refused'),
        ])
        .where('hour', '>=', query.from)
        .where('hour', '<', query.to)
        .groupBy(query.groupBy === 'none' ? [day] : [day, group])
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
  };
}
