import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { Kysely, SqliteDialect, type SqliteDatabase } from 'kysely';
import type { Database } from '../schema.js';
import { startCheckpointer, type Checkpointer, type CheckpointerOptions } from './checkpointer.js';

/**
 * Bytes the WAL file is cut back to when it restarts from its beginning (after a checkpoint
 * copied every frame back). Without a limit the file keeps its largest size forever.
 */
export const JOURNAL_SIZE_LIMIT = 4 * 1024 * 1024;

export interface SqliteConnection {
  db: Kysely<Database>;
  /** The one better-sqlite3 connection under `db` (for statements prepared once, e.g. ledger batches). */
  raw: BetterSqlite3.Database;
  /** Changes whenever another connection (another process, e.g. the CLI) commits a write. */
  dataVersion: () => number;
  /** The WAL checkpoint thread; null for `:memory:`, when the file is not in WAL mode, or when turned off. */
  checkpointer: Checkpointer | null;
}

export interface SqliteOptions {
  /** WAL checkpoints on a worker thread (default on for files); false keeps SQLite's automatic checkpoints. */
  checkpointWorker?: boolean | CheckpointerOptions;
}

/** `sqlite:./data/x.db`, `sqlite:/abs/x.db`, `sqlite::memory:`. */
export function openSqlite(url: string, options: SqliteOptions = {}): SqliteConnection {
  const target = url.slice('sqlite:'.length);
  const filename = target === ':memory:' ? ':memory:' : resolve(target);
  if (filename !== ':memory:') mkdirSync(dirname(filename), { recursive: true });
  const raw = new BetterSqlite3(filename);
  const mode: unknown = raw.pragma('journal_mode = WAL', { simple: true });
  raw.pragma('foreign_keys = ON');
  raw.pragma('busy_timeout = 5000');
  raw.pragma('synchronous = NORMAL');
  raw.pragma(`journal_size_limit = ${JOURNAL_SIZE_LIMIT}`);
  const versionStatement = raw.prepare('PRAGMA data_version');
  const wanted = options.checkpointWorker ?? true;
  const checkpointer =
    filename !== ':memory:' && mode === 'wal' && wanted !== false
      ? startCheckpointer(raw, filename, { journalSizeLimit: JOURNAL_SIZE_LIMIT, ...(wanted === true ? {} : wanted) })
      : null;
  // Kysely closes the database on destroy(): the checkpoint thread goes with it. The main
  // connection closes first, so the worker's connection is the last one and settles the WAL.
  const database: SqliteDatabase = {
    prepare: (sql) => raw.prepare(sql),
    close() {
      raw.close();
      checkpointer?.close();
    },
  };
  return {
    db: new Kysely<Database>({ dialect: new SqliteDialect({ database }) }),
    raw,
    dataVersion: () => Number((versionStatement.get() as { data_version: number }).data_version),
    checkpointer,
  };
}
