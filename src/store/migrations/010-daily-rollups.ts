import { sql, type Kysely } from 'kysely';

/**
 * `usage_rollups_daily`: generations summed per UTC day × key × model × provider endpoint (the
 * hourly rollups' key with `day` for `hour`, the same sums), kept by the ledger writers in the
 * same transaction as the generations and the hourly rollups. Reads over a month go here: a day
 * row stands for up to 24 hourly rows. Filled from the hourly rollups, which hold every
 * generation stored so far. The `(key_hash, day)` index serves one key's month (an API key's
 * own `GET /activity`) however many keys the store has; rows are inserted once per day and key,
 * then only their sums change, so the index costs the write path almost nothing.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('usage_rollups_daily')
    .addColumn('day', 'text', (c) => c.notNull())
    .addColumn('key_hash', 'text', (c) => c.notNull())
    .addColumn('workspace_id', 'text', (c) => c.notNull())
    .addColumn('model', 'text', (c) => c.notNull())
    .addColumn('provider_id', 'text', (c) => c.notNull())
    .addColumn('upstream_model', 'text', (c) => c.notNull())
    .addColumn('requests', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('errors', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('cancelled', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('flagged', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('prompt_tokens', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('completion_tokens', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('reasoning_tokens', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('cost_usd', 'double precision', (c) => c.notNull().defaultTo(0))
    .addColumn('generation_time_ms', 'double precision', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('usage_rollups_daily_pk', [
      'day',
      'key_hash',
      'workspace_id',
      'model',
      'provider_id',
      'upstream_model',
    ])
    .execute();
  await sql`INSERT INTO usage_rollups_daily (day, key_hash, workspace_id, model, provider_id, upstream_model,
      requests, errors, cancelled, flagged, prompt_tokens, completion_tokens, reasoning_tokens, cost_usd, generation_time_ms)
    SELECT substr(hour, 1, 10), key_hash, workspace_id, model, provider_id, upstream_model,
      sum(requests), sum(errors), sum(cancelled), sum(flagged), sum(prompt_tokens), sum(completion_tokens),
      sum(reasoning_tokens), sum(cost_usd), sum(generation_time_ms)
    FROM usage_rollups
    GROUP BY substr(hour, 1, 10), key_hash, workspace_id, model, provider_id, upstream_model`.execute(db);
  await db.schema
    .createIndex('usage_rollups_daily_key_day')
    .on('usage_rollups_daily')
    .columns(['key_hash', 'day'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('usage_rollups_daily').ifExists().execute();
}
