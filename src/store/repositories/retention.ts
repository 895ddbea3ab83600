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

    pruneHourlyRollups: (beforeHour) => deleteOldestBucket(db, 'usage_rollups', 'hour', beforeHour),
    pruneDailyRollups: (beforeDay) => deleteOldestBucket(db, 'usage_rollups_daily', 'day', beforeDay),
  };
}

/**
 * Deletes the oldest bucket of a rollup table before `before`, in one statement. The bucket
 * column leads the table's primary key, so the oldest one is found and deleted through it. Table
 * and column come from the two call sites above, never from a request.
 */
async function deleteOldestBucket(
  db: Kysely<Database>,
  table: 'usage_rollups' | 'usage_rollups_daily',
  bucket: 'hour' | 'day',
  before: string,
): Promise<number> {
  const result = await sql`DELETE FROM ${sql.table(table)} WHERE ${sql.ref(bucket)} =
    (SELECT min(${sql.ref(bucket)}) FROM ${sql.table(table)} WHERE ${sql.ref(bucket)} < ${before})`.execute(db);
  return Number(result.numAffectedRows ?? 0);
}
