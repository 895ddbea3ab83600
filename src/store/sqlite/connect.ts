import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import type { Database } from '../schema.js';

export interface SqliteConnection {
  db: Kysely<Database>;
  /** The one better-sqlite3 connection under `db` (for statements prepared once, e.g. ledger batches). */
  raw: BetterSqlite3.Database;
  /** Changes whenever another connection (another process, e.g. the CLI) commits a write. */
  dataVersion(): number;
}

/** `sqlite:./data/x.db`, `sqlite:/abs/x.db`, `sqlite::memory:`. */
export function openSqlite(url: string): SqliteConnection {
  const target = url.slice('sqlite:'.length);
  const filename = target === ':memory:' ? ':memory:' : resolve(target);
  if (filename !== ':memory:') mkdirSync(dirname(filename), { recursive: true });
  const raw = new BetterSqlite3(filename);
  raw.pragma('journal_mode = WAL');
  raw.pragma('foreign_keys = ON');
  raw.pragma('busy_timeout = 5000');
  raw.pragma('synchronous = NORMAL');
  const versionStatement = raw.prepare('PRAGMA data_version');
  return {
    db: new Kysely<Database>({ dialect: new SqliteDialect({ database: raw }) }),
    raw,
    dataVersion: () => Number((versionStatement.get() as { data_version: number }).data_version),
  };
}
