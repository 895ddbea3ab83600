import type { Kysely } from 'kysely';

/**
 * Who called, on each generation (`user_agent`, `session_id`, `origin`; null on older rows), and
 * stored Responses (`store: true`): a response's whole input (with what it chained on) and its
 * output items, the response object, for `previous_response_id`, `item_reference`,
 * `GET /responses/{id}` and `DELETE`. A row belongs to the workspace and key that made it and
 * expires at `expires_at` (pruned in the background through that index).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('generations').addColumn('user_agent', 'text').execute();
  await db.schema.alterTable('generations').addColumn('session_id', 'text').execute();
  await db.schema.alterTable('generations').addColumn('origin', 'text').execute();
  await db.schema
    .createTable('stored_responses')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('workspace_id', 'text', (c) => c.notNull())
    .addColumn('key_hash', 'text', (c) => c.notNull())
    .addColumn('input_items', 'text', (c) => c.notNull())
    .addColumn('output_items', 'text', (c) => c.notNull())
    .addColumn('response', 'text', (c) => c.notNull())
    .addColumn('bytes', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('stored_responses_expires').on('stored_responses').column('expires_at').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('stored_responses').ifExists().execute();
  await db.schema.alterTable('generations').dropColumn('origin').execute();
  await db.schema.alterTable('generations').dropColumn('session_id').execute();
  await db.schema.alterTable('generations').dropColumn('user_agent').execute();
}
