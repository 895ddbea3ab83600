import { sql, type Kysely } from 'kysely';

/**
 * Console sign-in by person (OpenID Connect) and roles:
 * - `members.disabled_at`: a disabled member can no longer sign in, and their console sessions end
 *   on their next request. Organization roles gain `org:owner` (the column is free text).
 * - `workspace_members.role` gains `viewer` (free text too); an index on `user_id` serves the
 *   per-request lookup of one person's workspace roles.
 * - `console_sessions` is rebuilt so that a session belongs either to a management key (break-glass
 *   sign-in: `key_hash`, `key_token_digest`) or to a member (`member_id`). Sessions are short-lived
 *   and carry nothing else, so the rows are copied as they are (all are key sessions).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('members').addColumn('disabled_at', 'text').execute();
  await db.schema.createIndex('workspace_members_user').on('workspace_members').column('user_id').execute();

  await db.schema
    .createTable('console_sessions_v2')
    .addColumn('token_digest', 'text', (c) => c.primaryKey())
    .addColumn('key_hash', 'text')
    .addColumn('key_token_digest', 'text')
    .addColumn('member_id', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('last_seen_at', 'text', (c) => c.notNull())
    .execute();
  await sql`INSERT INTO console_sessions_v2 (token_digest, key_hash, key_token_digest, member_id, created_at, last_seen_at)
    SELECT token_digest, key_hash, key_token_digest, NULL, created_at, last_seen_at FROM console_sessions`.execute(db);
  await db.schema.dropTable('console_sessions').execute();
  await db.schema.alterTable('console_sessions_v2').renameTo('console_sessions').execute();
  await db.schema.createIndex('console_sessions_idle').on('console_sessions').column('last_seen_at').execute();
  await db.schema.createIndex('console_sessions_member').on('console_sessions').column('member_id').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('console_sessions_member').ifExists().execute();
  await db.schema.dropIndex('console_sessions_idle').ifExists().execute();
  await sql`DELETE FROM console_sessions WHERE member_id IS NOT NULL`.execute(db);
  await db.schema.dropIndex('workspace_members_user').ifExists().execute();
  await db.schema.alterTable('members').dropColumn('disabled_at').execute();
}
