import { randomUUID } from 'node:crypto';
import { closeSync, copyFileSync, existsSync, mkdtempSync, openSync, readSync, rmSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { migrationProvider } from '../migrations/index.js';
import { RESTORE_MARKER_KEY } from '../restore-marker.js';
import { openStore } from '../store.js';
import { BackupError, copyDatabase, integrityProblem, sqliteCode } from './backup-file.js';

const SQLITE_MAGIC = 'SQLite format 3\0';

/** A backup checked and brought up to this version's schema in a private copy, not yet copied in. */
export interface StagedRestore {
  /** The backup file, absolute. */
  source: string;
  /** `sqlite:` URL of the private copy (for recording the audit entry into it). */
  stagedUrl: string;
  /** Migrations the backup lacked, now applied to the copy. */
  applied: string[];
  /**
   * Copies the staged database into the live file in one write transaction (SQLite's backup API,
   * through the live file's WAL), with a new restore marker that running servers notice.
   */
  copyIn(): Promise<void>;
  /** Removes the private copy (always call it, also after copyIn). */
  discard(): void;
}

/**
 * Checks `file` as a backup for the database `live`, before anything is changed: a SQLite
 * database (not a live one with a WAL beside it), `integrity_check` ok, and only migrations this
 * version knows (a backup of a newer version is refused). The backup file is never opened for
 * writing: it is copied beside the live database first, and that copy is migrated.
 */
export async function stageRestore(file: string, live: string): Promise<StagedRestore> {
  const source = resolve(file);
  if (!existsSync(source) || !statSync(source).isFile()) throw new BackupError(`no backup file at ${source}`);
  if (existsSync(`${source}-wal`) && statSync(`${source}-wal`).size > 0)
    throw new BackupError(
      `${source} has a write-ahead log beside it: it is a database in use, not a backup (take one with switchyard backup)`,
    );
  if (!hasSqliteHeader(source)) throw new BackupError(`${source} is not a SQLite database`);
  if (!existsSync(dirname(live))) throw new BackupError(`directory ${dirname(live)} does not exist`);
  const dir = mkdtempSync(join(dirname(live), `.${basename(live)}.restore-`));
  const staged = join(dir, 'staged.db');
  const discard = () => rmSync(dir, { recursive: true, force: true });
  try {
    copyFileSync(source, staged);
    await checkStaged(source, staged);
  } catch (error) {
    discard();
    throw error;
  }
  const store = openStore(`sqlite:${staged}`, { checkpointWorker: false });
  let applied: string[];
  try {
    applied = await store.migrate();
  } catch (error) {
    discard();
    throw new BackupError(`${source} could not be brought up to this version's schema: ${message(error)}`);
  } finally {
    await store.close();
  }
  return { source, stagedUrl: `sqlite:${staged}`, applied, copyIn: () => copyIn(staged, live), discard };
}

function hasSqliteHeader(path: string): boolean {
  const fd = openSync(path, 'r');
  try {
    const header = Buffer.alloc(SQLITE_MAGIC.length);
    const read = readSync(fd, header, 0, header.length, 0);
    return read === header.length && header.toString('latin1') === SQLITE_MAGIC;
  } finally {
    closeSync(fd);
  }
}

async function checkStaged(source: string, staged: string): Promise<void> {
  const known = new Set(Object.keys(await migrationProvider.getMigrations()));
  let db: BetterSqlite3.Database | null = null;
  try {
    db = new BetterSqlite3(staged, { fileMustExist: true });
    const problem = integrityProblem(db);
    if (problem !== null) throw new BackupError(`${source} failed integrity_check: ${problem}`);
    const table = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'kysely_migration'").get();
    if (table === undefined)
      throw new BackupError(`${source} is not a Switchyard database (it has no migrations table)`);
    const names = (db.prepare('SELECT name FROM kysely_migration ORDER BY name').all() as { name: string }[]).map(
      (r) => r.name,
    );
    const unknown = names.filter((name) => !known.has(name));
    if (unknown.length > 0)
      throw new BackupError(
        `${source} comes from a newer Switchyard (migrations ${unknown.join(', ')} are unknown here); upgrade first`,
      );
  } catch (error) {
    if (error instanceof BackupError) throw error;
    const code = sqliteCode(error);
    if (code === null) throw error;
    throw new BackupError(`${source} is corrupt or not a SQLite database (${code}: ${message(error)})`);
  } finally {
    db?.close();
  }
}

async function copyIn(staged: string, live: string): Promise<void> {
  const marker = randomUUID();
  const db = new BetterSqlite3(staged, { fileMustExist: true });
  try {
    db.prepare('INSERT OR REPLACE INTO store_meta (key, value) VALUES (?, ?)').run(RESTORE_MARKER_KEY, marker);
    db.pragma('journal_mode = DELETE');
    await copyDatabase(db, live);
  } finally {
    db.close();
  }
  // Read back through a new connection: the live file now holds the staged content.
  const check = new BetterSqlite3(live, { fileMustExist: true });
  try {
    check.pragma('busy_timeout = 5000');
    const row = check.prepare('SELECT value FROM store_meta WHERE key = ?').get(RESTORE_MARKER_KEY) as
      { value: string } | undefined;
    if (row?.value !== marker) throw new BackupError(`${live} does not hold the restored content; check it`);
  } finally {
    check.close();
  }
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
