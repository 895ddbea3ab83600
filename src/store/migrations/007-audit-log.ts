import type { Kysely } from 'kysely';

/**
 * The audit log: one row per management write, inserted in the write's own transaction
 * (docs/api.md, "Audit log"). Newest-first listing pages on (at, id); the filters have indexes.
 * No foreign keys: a record outlives the member, key or workspace it names.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('audit_log')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('at', 'text', (c) => c.notNull())
    .addColumn('actor_kind', 'text', (c) => c.notNull())
    .addColumn('actor_member_id', 'text')
    .addColumn('actor_email', 'text')
    .addColumn('actor_key_hash', 'text')
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('target_type', 'text', (c) => c.notNull())
    .addColumn('target_id', 'text', (c) => c.notNull())
    .addColumn('changes', 'text')
    .execute();
  await db.schema.createIndex('audit_log_at').on('audit_log').columns(['at', 'id']).execute();
  await db.schema.createIndex('audit_log_target').on('audit_log').columns(['target_type', 'target_id']).execute();
  await db.schema.createIndex('audit_log_action').on('audit_log').columns(['action', 'at']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('audit_log').ifExists().execute();
}
