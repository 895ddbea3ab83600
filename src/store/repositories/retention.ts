import { sql, type Kysely } from 'kysely';
import type { RetentionRepository } from '../../domain/retention/types.js';
import type { Database } from '../schema.js';

export function createRetentionRepository(db: Kysely<Database>): RetentionRepository {
  return {
    async acquireLease(job, holder, now, expiresAt) {
      // Taken when free, expired or already ours; the conflict's WHERE makes it one atomic step.
      const row = await db
        .insertInto('maintenance_leases')
        .values({ job, holder, expires_at: expiresAt })
        .onConflict((oc) =>
          oc
            .column('job')
            .doUpdateSet({ holder, expires_at: expiresAt })
            .where((eb) =>
              eb.or([eb('maintenance_leases.holder', '=', holder), eb('maintenance_leases.expires_at', '<', now)]),
            ),
        )
        .returning('holder')
        .executeTakeFirst();
      return row?.holder === holder;
    },

    async releaseLease(job, holder) {
      await db.deleteFrom('maintenance_leases').where('job', '=', job).where('holder', '=', holder).execute();
    },

    async pruneGenerations(before, limit) {
      // Oldest first through the (created_at, id) index; one short statement per batch.
      const result = await db
        .deleteFrom('generations')
        .where('id', 'in', (eb) =>
          eb.selectFrom('generations').select('id').where('created_at', '<', before).orderBy('created_at').limit(limit),
        )
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },

    async pruneHourlyRollups(beforeHour) {
      // `hour` leads the primary key: the oldest bucket is found and deleted through it.
      const result = await db
        .deleteFrom('usage_rollups')
        .where(
          'hour',
          '=',
          db
            .selectFrom('usage_rollups')
            .select(sql<string>`min("hour")`.as('oldest'))
            .where('hour', '<', beforeHour),
        )
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },

    async pruneDailyRollups(beforeDay) {
      const result = await db
        .deleteFrom('usage_rollups_daily')
        .where(
          'day',
          '=',
          db
            .selectFrom('usage_rollups_daily')
            .select(sql<string>`min("day")`.as('oldest'))
            .where('day', '<', beforeDay),
        )
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}
