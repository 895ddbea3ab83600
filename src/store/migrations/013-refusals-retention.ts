import { sql, type Kysely } from 'kysely';

/**
 * Refused model calls and retention (docs/metering.md, "Refused calls"; docs/deploy.md, "Retention").
 *
 * - `generations` gains the refusal columns: a refused call is a generation row with
 *   `finish_reason = 'error'` (so every error count includes it) and `refusal_status` set (the
 *   HTTP status it was refused with). `refusal_count` is how many refusals the row stands for: 1,
 *   or more for the row that sums a key's refusals beyond the recorded rate (null: not a refusal).
 * - The hourly and daily rollups gain `refused` (how many of `errors` were refusals).
 * - `maintenance_leases`: one row per background job (the retention pruner) naming the replica
 *   that runs it until `expires_at`, so that several replicas never prune at once.
 * - `generations_refused_created`: the activity log's "refused" filter, a partial index like the
 *   failed one of migration 008 (the condition is repeated literally by the query).
 * - Rollups are pruned by their bucket; `usage_rollups` has `hour` leading its primary key and the
 *   daily table `day`, so no index is needed there; `generations` has `generations_created`.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('generations').addColumn('refusal_status', 'integer').execute();
  await db.schema.alterTable('generations').addColumn('refusal_code', 'text').execute();
  await db.schema.alterTable('generations').addColumn('refusal_reason', 'text').execute();
  await db.schema.alterTable('generations').addColumn('refusal_count', 'integer').execute();
  for (const table of ['usage_rollups', 'usage_rollups_daily'])
    await db.schema
      .alterTable(table)
      .addColumn('refused', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
  await db.schema
    .createIndex('generations_refused_created')
    .on('generations')
    .columns(['created_at', 'id'])
    .where(sql.ref('refusal_status'), 'is not', null)
    .execute();
  await db.schema
    .createTable('maintenance_leases')
    .addColumn('job', 'text', (c) => c.primaryKey())
    .addColumn('holder', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('maintenance_leases').ifExists().execute();
  await db.schema.dropIndex('generations_refused_created').ifExists().execute();
  for (const table of ['usage_rollups', 'usage_rollups_daily'])
    await db.schema.alterTable(table).dropColumn('refused').execute();
  for (const column of ['refusal_count', 'refusal_reason', 'refusal_code', 'refusal_status'])
    await db.schema.alterTable('generations').dropColumn(column).execute();
}
