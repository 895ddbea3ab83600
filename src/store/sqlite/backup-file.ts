import { closeSync, fsyncSync, openSync, rmSync } from 'node:fs';
import { resolve } from 'node:path';
import type BetterSqlite3 from 'better-sqlite3';

/** A backup or restore that cannot be done: the message says why, for the operator. */
export class BackupError extends Error {}

/** The pages one backup step copies: all of them, so the copy is read in one read transaction. */
const ALL_PAGES = 0x7fffffff;
/** How long a copy waits for the destination's write lock before giving up. */
const LOCK_WAIT_MS = 15_000;

/** The file of a `sqlite:` URL (absolute); PostgreSQL and `:memory:` have none. */
export function sqliteFileOf(url: string): string | null {
  if (!url.startsWith('sqlite:')) return null;
  const target = url.slice('sqlite:'.length);
  return target === ':memory:' || target === '' ? null : resolve(target);
}

/**
 * Copies every page of `source` into the database file `destination` with SQLite's online backup
 * (a new file is created; an existing one is overwritten in one write transaction, through its
 * WAL when it is in WAL mode, so its other connections see the new content at once).
 * better-sqlite3 reports a first step that found the destination locked as a finished copy of
 * zero pages: that is retried until the lock is free.
 */
export async function copyDatabase(source: BetterSqlite3.Database, destination: string): Promise<number> {
  const deadline = Date.now() + LOCK_WAIT_MS;
  for (;;) {
    const { totalPages } = await source.backup(destination, { progress: () => ALL_PAGES });
    if (totalPages > 0) return totalPages;
    if (Date.now() > deadline) throw new BackupError(`${destination} stayed locked by another writer; try again`);
    await new Promise((done) => setTimeout(done, 50));
  }
}

/** `PRAGMA integrity_check` of an open database: null when it is ok, else the first problem. */
export function integrityProblem(db: BetterSqlite3.Database): string | null {
  const rows = db.pragma('integrity_check') as { integrity_check: string }[];
  const first = rows[0]?.integrity_check ?? 'no answer';
  return rows.length === 1 && first === 'ok' ? null : first;
}

/** Flushes a file (or a directory entry, after a rename) to disk; a platform without it is skipped. */
export function fsyncPath(path: string): void {
  let fd: number | null = null;
  try {
    fd = openSync(path, 'r');
    fsyncSync(fd);
  } catch {
    // Directories cannot be opened for fsync on every platform; the rename itself stays atomic.
  } finally {
    if (fd !== null) closeSync(fd);
  }
}

/** Removes a scratch database and whatever SQLite left beside it. */
export function removeDatabaseFiles(path: string): void {
  for (const suffix of ['', '-wal', '-shm', '-journal']) rmSync(path + suffix, { force: true });
}

/** SQLite's error code (`SQLITE_CORRUPT`, `SQLITE_NOTADB`…) of a driver error, if it has one. */
export function sqliteCode(error: unknown): string | null {
  const code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
  return typeof code === 'string' && code.startsWith('SQLITE_') ? code : null;
}
