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

/**
 * How many of the statements Kysely runs are kept prepared, by SQL text. Kysely's SQLite driver
 * asks for a statement per query; parsing and planning the text again each time costs more than
 * running an ordinary insert. Kysely's texts carry values as parameters, so a deployment has a few
 * hundred at most; the bound only matters for texts built with a varying length (`IN` lists,
 * multi-row inserts), which push the oldest out.
 */
export const STATEMENT_CACHE_SIZE = 256;

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
  /** Statements kept prepared for Kysely (default STATEMENT_CACHE_SIZE; 0 prepares every query anew). */
  statementCache?: number;
}

/**
 * `prepare` for Kysely that reuses a statement per SQL text. Safe on this connection because
 * Kysely's SQLite driver runs one query at a time (its connection mutex): a statement is never
 * asked for again while an earlier run of it is still iterating. A statement that fails to
 * prepare is not kept; SQLite re-prepares a kept one by itself after a schema change.
 */
export function preparedBySql(raw: BetterSqlite3.Database, size: number): (sql: string) => BetterSqlite3.Statement {
  if (size <= 0) return (sql) => raw.prepare(sql);
  const kept = new Map<string, BetterSqlite3.Statement>();
  return (sql) => {
    let statement = kept.get(sql);
    if (statement === undefined) {
      statement = raw.prepare(sql);
      if (kept.size >= size) {
        const oldest = kept.keys().next();
        if (oldest.done !== true) kept.delete(oldest.value);
      }
      kept.set(sql, statement);
    }
    return statement;
  };
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
    prepare: preparedBySql(raw, options.statementCache ?? STATEMENT_CACHE_SIZE),
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
