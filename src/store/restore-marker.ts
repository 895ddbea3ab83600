import type { Kysely } from 'kysely';
import type { Database } from './schema.js';

/**
 * The `store_meta` row a restore writes (a new random id each time): running servers compare it
 * with the value they started with to tell a restored database from ordinary writes of another
 * process.
 */
export const RESTORE_MARKER_KEY = 'restore_id';

/** The current restore marker; null when the database was never restored. */
export async function readRestoreMarker(db: Kysely<Database>): Promise<string | null> {
  const row = await db
    .selectFrom('store_meta')
    .select('value')
    .where('key', '=', RESTORE_MARKER_KEY)
    .executeTakeFirst();
  return row?.value ?? null;
}
