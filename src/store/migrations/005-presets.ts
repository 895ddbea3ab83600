import type { Kysely } from 'kysely';

/** Presets (one slug per workspace) and their numbered, immutable versions. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('presets')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('slug', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('status_updated_at', 'text')
    .addColumn('creator_user_id', 'text', (c) => c.notNull())
    .addColumn('designated_version_id', 'text')
    .addColumn('latest_version', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('presets_workspace_slug', ['workspace_id', 'slug'])
    .execute();
  await db.schema
    .createIndex('presets_workspace_updated')
    .on('presets')
    .columns(['workspace_id', 'updated_at'])
    .execute();

  await db.schema
    .createTable('preset_versions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('preset_id', 'text', (c) => c.notNull().references('presets.id').onDelete('cascade'))
    .addColumn('version', 'integer', (c) => c.notNull())
    .addColumn('config', 'text', (c) => c.notNull())
    .addColumn('system_prompt', 'text', (c) => c.notNull())
    .addColumn('creator_id', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('preset_versions_preset_version', ['preset_id', 'version'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['preset_versions', 'presets']) await db.schema.dropTable(table).ifExists().execute();
}
