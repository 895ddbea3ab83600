import type { Kysely } from 'kysely';

/** Generations (one row per metered model call) and per-key spend counters per window. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('generations')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('request_id', 'text', (c) => c.notNull())
    .addColumn('key_hash', 'text', (c) => c.notNull())
    .addColumn('workspace_id', 'text', (c) => c.notNull())
    .addColumn('creator_user_id', 'text', (c) => c.notNull())
    .addColumn('model', 'text', (c) => c.notNull())
    .addColumn('provider_id', 'text', (c) => c.notNull())
    .addColumn('upstream_model', 'text', (c) => c.notNull())
    .addColumn('upstream_id', 'text')
    .addColumn('api_type', 'text', (c) => c.notNull())
    .addColumn('streamed', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('cancelled', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('finish_reason', 'text')
    .addColumn('native_finish_reason', 'text')
    .addColumn('prompt_tokens', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('completion_tokens', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('reasoning_tokens', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('cached_tokens', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('usage_estimated', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('prompt_cost_usd', 'double precision', (c) => c.notNull().defaultTo(0))
    .addColumn('completion_cost_usd', 'double precision', (c) => c.notNull().defaultTo(0))
    .addColumn('cost_usd', 'double precision', (c) => c.notNull().defaultTo(0))
    .addColumn('latency_ms', 'double precision', (c) => c.notNull().defaultTo(0))
    .addColumn('generation_time_ms', 'double precision', (c) => c.notNull().defaultTo(0))
    .addColumn('preset_id', 'text')
    .addColumn('preset_version', 'integer')
    .addColumn('flags', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('attempts', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('generations_key_created')
    .on('generations')
    .columns(['key_hash', 'created_at'])
    .execute();

  await db.schema
    .createTable('key_spend')
    .addColumn('key_hash', 'text', (c) => c.notNull())
    .addColumn('window', 'text', (c) => c.notNull())
    .addColumn('amount_usd', 'double precision', (c) => c.notNull().defaultTo(0))
    .addColumn('byok_usd', 'double precision', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('key_spend_pk', ['key_hash', 'window'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('key_spend').ifExists().execute();
  await db.schema.dropTable('generations').ifExists().execute();
}
