import type { Kysely } from 'kysely';

/**
 * Budget leases: the share of a budget (key limit, guardrail limit_usd) in one window that one
 * replica has set aside for the calls it admits, so that replicas admit calls from memory and
 * still never admit more together than the limit (docs/metering.md, "Several replicas").
 * `holder` is a replica's id for one process lifetime; `expires_at` (ISO-8601) is renewed while
 * the replica lives, so a crashed replica's share comes back by itself.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('budget_leases')
    .addColumn('account', 'text', (c) => c.notNull())
    .addColumn('window', 'text', (c) => c.notNull())
    .addColumn('holder', 'text', (c) => c.notNull())
    .addColumn('amount_usd', 'double precision', (c) => c.notNull().defaultTo(0))
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('budget_leases_pk', ['account', 'window', 'holder'])
    .execute();
  await db.schema.createIndex('budget_leases_expires').on('budget_leases').column('expires_at').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('budget_leases').ifExists().execute();
}
