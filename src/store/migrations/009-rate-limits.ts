import type { Kysely } from 'kysely';

/**
 * Guardrail rate limits (`requests_per_minute`, `tokens_per_minute`, nullable) and the
 * per-minute counts each replica shares with the others: one row per account, minute and
 * replica (`holder`), holding that replica's own counts; a row expires two minutes after it was
 * last written.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('guardrails').addColumn('requests_per_minute', 'integer').execute();
  await db.schema.alterTable('guardrails').addColumn('tokens_per_minute', 'bigint').execute();
  await db.schema
    .createTable('rate_counts')
    .addColumn('account', 'text', (c) => c.notNull())
    .addColumn('window', 'text', (c) => c.notNull())
    .addColumn('holder', 'text', (c) => c.notNull())
    .addColumn('requests', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('tokens', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('rate_counts_pk', ['account', 'window', 'holder'])
    .execute();
  await db.schema.createIndex('rate_counts_expires').on('rate_counts').column('expires_at').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('rate_counts').ifExists().execute();
  await db.schema.alterTable('guardrails').dropColumn('tokens_per_minute').execute();
  await db.schema.alterTable('guardrails').dropColumn('requests_per_minute').execute();
}
