import type { Kysely } from 'kysely';

/** Guardrails, and the assignment of a guardrail to keys and to members (one each at most). */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('guardrails')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('allowed_models', 'text')
    .addColumn('allowed_providers', 'text')
    .addColumn('ignored_models', 'text')
    .addColumn('ignored_providers', 'text')
    .addColumn('limit_usd', 'double precision')
    .addColumn('reset_interval', 'text')
    .addColumn('enforce_zdr', 'integer')
    .addColumn('enforce_zdr_vendor_a', 'integer')
    .addColumn('enforce_zdr_vendor_b', 'integer')
    .addColumn('enforce_zdr_vendor_c', 'integer')
    .addColumn('enforce_zdr_vendor_d', 'integer')
    .addColumn('enforce_zdr_other', 'integer')
    .addColumn('content_filter_builtins', 'text')
    .addColumn('content_filters', 'text')
    .addColumn('include_byok_in_budgets', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text')
    .execute();
  await db.schema
    .createIndex('guardrails_workspace')
    .on('guardrails')
    .columns(['workspace_id', 'created_at'])
    .execute();

  await db.schema
    .createTable('guardrail_key_assignments')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('guardrail_id', 'text', (c) => c.notNull().references('guardrails.id').onDelete('cascade'))
    .addColumn('key_hash', 'text', (c) => c.notNull().unique().references('api_keys.hash').onDelete('cascade'))
    .addColumn('assigned_by', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('guardrail_key_assignments_guardrail')
    .on('guardrail_key_assignments')
    .columns(['guardrail_id', 'created_at'])
    .execute();

  await db.schema
    .createTable('guardrail_member_assignments')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('guardrail_id', 'text', (c) => c.notNull().references('guardrails.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.notNull().unique().references('members.id').onDelete('cascade'))
    .addColumn('assigned_by', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('guardrail_member_assignments_guardrail')
    .on('guardrail_member_assignments')
    .columns(['guardrail_id', 'created_at'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['guardrail_member_assignments', 'guardrail_key_assignments', 'guardrails']) {
    await db.schema.dropTable(table).ifExists().execute();
  }
}
