import { sql, type Kysely } from 'kysely';

/**
 * The web console's tables and the indexes its filters need:
 * - `console_sessions`: one row per signed-in browser, keyed by the digest of the session token
 *   (the token itself lives only in the browser's HttpOnly cookie). `key_token_digest` is the
 *   management key's digest at sign-in: the session lives only while that key authenticates.
 * - `usage_rollups`: generations summed per UTC hour × key × model × provider endpoint, kept by
 *   the ledger writers in the same transaction as the generations (filled here from what exists).
 * - indexes on `generations` for the activity log's filters, each ending in (created_at, id),
 *   the log's order, so a filtered page is an index range scan.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('console_sessions')
    .addColumn('token_digest', 'text', (c) => c.primaryKey())
    .addColumn('key_hash', 'text', (c) => c.notNull())
    .addColumn('key_token_digest', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('last_seen_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('console_sessions_last_seen').on('console_sessions').column('last_seen_at').execute();

  await db.schema
    .createTable('usage_rollups')
    .addColumn('hour', 'text', (c) => c.notNull())
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
    .addPrimaryKeyConstraint('usage_rollups_pk', [
      'hour',
      'key_hash',
      'workspace_id',
      'model',
      'provider_id',
      'upstream_model',
    ])
    .execute();
  await sql`INSERT INTO usage_rollups (hour, key_hash, workspace_id, model, provider_id, upstream_model,
      requests, errors, cancelled, flagged, prompt_tokens, completion_tokens, reasoning_tokens, cost_usd, generation_time_ms)
    SELECT substr(created_at, 1, 13), key_hash, workspace_id, model, provider_id, upstream_model,
      count(*), sum(CASE WHEN finish_reason = 'error' THEN 1 ELSE 0 END), sum(cancelled),
      sum(CASE WHEN flags <> '[]' THEN 1 ELSE 0 END), sum(prompt_tokens), sum(completion_tokens),
      sum(reasoning_tokens), sum(cost_usd), sum(generation_time_ms)
    FROM generations
    GROUP BY substr(created_at, 1, 13), key_hash, workspace_id, model, provider_id, upstream_model`.execute(db);

  const onGenerations = (name: string, columns: string[]) =>
    db.schema.createIndex(name).on('generations').columns(columns);
  await onGenerations('generations_created', ['created_at', 'id']).execute();
  await onGenerations('generations_model_created', ['model', 'created_at', 'id']).execute();
  await onGenerations('generations_provider_created', ['provider_id', 'created_at', 'id']).execute();
  await onGenerations('generations_workspace_created', ['workspace_id', 'created_at', 'id']).execute();
  await onGenerations('generations_flagged_created', ['created_at', 'id'])
    .where(sql.ref('flags'), '<>', '[]')
    .execute();
  await onGenerations('generations_failed_created', ['created_at', 'id'])
    .where(sql.ref('finish_reason'), '=', 'error')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const index of [
    'generations_created',
    'generations_model_created',
    'generations_provider_created',
    'generations_workspace_created',
    'generations_flagged_created',
    'generations_failed_created',
  ])
    await db.schema.dropIndex(index).ifExists().execute();
  await db.schema.dropTable('usage_rollups').ifExists().execute();
  await db.schema.dropTable('console_sessions').ifExists().execute();
}
