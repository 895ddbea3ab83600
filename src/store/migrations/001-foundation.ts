import type { Kysely } from 'kysely';

/** Members, workspaces, workspace memberships and keys. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('members')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('email', 'text', (c) => c.notNull().unique())
    .addColumn('first_name', 'text')
    .addColumn('last_name', 'text')
    .addColumn('role', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('workspaces')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('slug', 'text', (c) => c.notNull().unique())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('is_default', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('default_text_model', 'text')
    .addColumn('default_image_model', 'text')
    .addColumn('default_provider_sort', 'text')
    .addColumn('disabled_server_tools', 'text')
    .addColumn('io_logging_api_key_ids', 'text')
    .addColumn('io_logging_sampling_rate', 'double precision', (c) => c.notNull().defaultTo(1))
    .addColumn('is_data_discount_logging_enabled', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('is_observability_broadcast_enabled', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('is_observability_io_logging_enabled', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('include_byok_in_budgets', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_by', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text')
    .execute();

  await db.schema
    .createTable('workspace_members')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.notNull().references('members.id').onDelete('cascade'))
    .addColumn('role', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('workspace_members_ws_user', ['workspace_id', 'user_id'])
    .execute();

  await db.schema
    .createTable('api_keys')
    .addColumn('hash', 'text', (c) => c.primaryKey())
    .addColumn('token_digest', 'text', (c) => c.notNull().unique())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('label', 'text', (c) => c.notNull())
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id'))
    .addColumn('creator_user_id', 'text', (c) => c.notNull().references('members.id'))
    .addColumn('disabled', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('limit_usd', 'double precision')
    .addColumn('limit_reset', 'text')
    .addColumn('include_byok_in_limit', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('expires_at', 'text')
    .addColumn('external_user', 'text')
    .addColumn('external_api_key_digest', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text')
    .addColumn('rotated_at', 'text')
    .execute();
  await db.schema.createIndex('api_keys_workspace').on('api_keys').columns(['workspace_id', 'kind']).execute();
  await db.schema.createIndex('api_keys_creator').on('api_keys').columns(['creator_user_id']).execute();

  await db.schema
    .createTable('store_meta')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['store_meta', 'api_keys', 'workspace_members', 'workspaces', 'members']) {
    await db.schema.dropTable(table).ifExists().execute();
  }
}
