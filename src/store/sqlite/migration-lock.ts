import { sql, type Kysely } from 'kysely';

const BUSY = /^SQLITE_BUSY/;

function isBusy(error: unknown): boolean {
  const code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
  return typeof code === 'string' && BUSY.test(code);
}

/**
 * Runs `fn` (the migrator) inside one `BEGIN IMMEDIATE` transaction on the SQLite file, so that
 * several processes migrating one file at once run one after the other (Kysely takes no lock on
 * SQLite) and a failed migration leaves nothing half applied. `BEGIN IMMEDIATE` waits for the
 * write lock up to the connection's busy_timeout; it is retried until `waitMs` has passed.
 * `fn` reports failure through its result (`failed(result)`), like Kysely's Migrator.
 */
export async function withSqliteMigrationLock<DB, T>(
  db: Kysely<DB>,
  fn: () => Promise<T>,
  options: { failed(result: T): boolean; waitMs?: number },
): Promise<T> {
  const deadline = Date.now() + (options.waitMs ?? 120_000);
  for (;;) {
    try {
      await sql`begin immediate`.execute(db);
      break;
    } catch (error) {
      if (!isBusy(error) || Date.now() >= deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 50 + Math.random() * 100));
    }
  }
  let result: T;
  try {
    result = await fn();
  } catch (error) {
    await sql`rollback`.execute(db).catch(() => undefined);
    throw error;
  }
  if (options.failed(result)) await sql`rollback`.execute(db).catch(() => undefined);
  else await sql`commit`.execute(db);
  return result;
}
