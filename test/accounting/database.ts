// A Kysely over a fresh SQLite file or PostgreSQL database with the foundation and accounting
// migrations applied, as the lead's store will have it once 002 is registered.
import type { Kysely } from 'kysely';
import * as m001 from '../../src/store/migrations/001-foundation.js';
import * as m002 from '../../src/store/migrations/002-accounting.js';
import * as m004 from '../../src/store/migrations/004-spend-accounts.js';
import * as m006 from '../../src/store/migrations/006-budget-leases.js';
import * as m008 from '../../src/store/migrations/008-console.js';
import * as m010 from '../../src/store/migrations/010-daily-rollups.js';
import * as m014 from '../../src/store/migrations/014-callers-and-stored-responses.js';
import * as m013 from '../../src/store/migrations/013-refusals-retention.js';
import { postgresBatchWriter } from '../../src/store/postgres/ledger-writer.js';
import type { BatchWriter } from '../../src/store/repositories/ledger-rows.js';
import type { AccountingTables } from '../../src/store/schema-accounting.js';
import type { Database } from '../../src/store/schema.js';
import { openPostgres } from '../../src/store/postgres/connect.js';
import { openSqlite } from '../../src/store/sqlite/connect.js';
import { sqliteBatchWriter } from '../../src/store/sqlite/ledger-writer.js';
import { testDatabase, type TestDialect } from '../support/server.js';

/** The merged type the lead's `Database` becomes; the ledger repository must accept it. */
export type MergedDatabase = Database & AccountingTables;

export interface AccountingDb {
  db: Kysely<MergedDatabase>;
  /** The dialect's fixed-statement ledger writer, as the store wires it. */
  writer: BatchWriter;
  close(): Promise<void>;
}

export async function openAccountingDb(dialect: TestDialect): Promise<AccountingDb> {
  const target = await testDatabase(dialect);
  let db: Kysely<MergedDatabase>;
  let writer: BatchWriter;
  if (dialect === 'sqlite') {
    const conn = openSqlite(target.url);
    db = conn.db;
    writer = sqliteBatchWriter(conn.raw, db);
  } else {
    db = openPostgres(target.url).db;
    writer = postgresBatchWriter(db);
  }
  await m001.up(db as unknown as Kysely<unknown>);
  await m002.up(db as unknown as Kysely<unknown>);
  await m004.up(db as unknown as Kysely<unknown>);
  await m006.up(db as unknown as Kysely<unknown>);
  // The ledger writers keep the hourly and daily usage rollups (008, 010) in the same transaction.
  await m008.up(db as unknown as Kysely<unknown>);
  await m010.up(db as unknown as Kysely<unknown>);
  // Who called, on each generation (014).
  await m014.up(db as unknown as Kysely<unknown>);
  // Refusal columns on generations and the rollups' `refused` sum.
  await m013.up(db as unknown as Kysely<unknown>);
  return {
    db,
    writer,
    close: async () => {
      await db.destroy();
      await target.dispose();
    },
  };
}
