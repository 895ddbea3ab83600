import { randomBytes } from 'node:crypto';
import { existsSync, linkSync, renameSync, statSync, unlinkSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { BackupError, copyDatabase, fsyncPath, integrityProblem, removeDatabaseFiles } from './backup-file.js';

export interface BackupResult {
  path: string;
  bytes: number;
}

/**
 * Writes a consistent copy of the SQLite database `source` to `target` while other connections
 * (the running server) keep reading and writing it. The copy is read in one read transaction
 * (SQLite's online backup), so it is one moment of the database, WAL content included. It is
 * written under a temporary name beside `target`, switched out of WAL mode (one self-contained
 * file), checked with `integrity_check`, flushed, and only then given its name: a file at
 * `target` is always a complete backup. An existing `target` is kept unless `force`.
 */
export async function backupSqlite(source: string, target: string, force: boolean): Promise<BackupResult> {
  const path = resolve(target);
  if (!force && existsSync(path)) throw new BackupError(`${path} already exists; pass --force to overwrite it`);
  if (!existsSync(dirname(path))) throw new BackupError(`directory ${dirname(path)} does not exist`);
  if (!existsSync(source)) throw new BackupError(`no database at ${source}`);
  const partial = join(dirname(path), `.${basename(path)}.partial-${randomBytes(4).toString('hex')}`);
  try {
    const db = new BetterSqlite3(source, { fileMustExist: true });
    try {
      db.pragma('busy_timeout = 5000');
      await copyDatabase(db, partial);
    } finally {
      db.close();
    }
    const copy = new BetterSqlite3(partial, { fileMustExist: true });
    try {
      // The copied header says WAL (like the source); rollback mode keeps the backup one file.
      copy.pragma('journal_mode = DELETE');
      const problem = integrityProblem(copy);
      if (problem !== null) throw new BackupError(`the copy failed integrity_check (${problem}); nothing was written`);
    } finally {
      copy.close();
    }
    fsyncPath(partial);
    place(partial, path, force);
    fsyncPath(dirname(path));
    return { path, bytes: statSync(path).size };
  } finally {
    removeDatabaseFiles(partial);
  }
}

/** Gives the finished copy its name; without `force`, never replacing a file that appeared meanwhile. */
function place(partial: string, path: string, force: boolean): void {
  if (force) {
    renameSync(partial, path);
    return;
  }
  try {
    // A hard link fails if the name is taken, where a rename would silently replace the file.
    linkSync(partial, path);
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (code === 'EEXIST') throw new BackupError(`${path} already exists; pass --force to overwrite it`);
    // A file system without hard links: check, then rename.
    if (existsSync(path)) throw new BackupError(`${path} already exists; pass --force to overwrite it`);
    renameSync(partial, path);
    return;
  }
  unlinkSync(partial);
}
