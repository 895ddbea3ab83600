import { sql, type Kysely } from 'kysely';
import type { LedgerRepository, WindowSpend } from '../../domain/accounting/types.js';
import type { AccountingDatabase } from '../schema-accounting.js';
import type { UsageRollupsDailyTable, UsageRollupsTable } from '../schema-console.js';
import { budgetLeaseMethods } from './budget-leases.js';
import { freshSums, toRecord, toRow, type BatchWriter } from './ledger-rows.js';
import {
  DAILY_ROLLUP_KEY_COLUMNS,
  dailySums,
  ROLLUP_KEY_COLUMNS,
  ROLLUP_SUM_COLUMNS,
  rollupSums,
} from './rollup-rows.js';

/** Rows per INSERT statement (well under SQLite's and PostgreSQL's bound-parameter limits). */
const ROWS_PER_INSERT = 200;

const chunks = <T>(items: readonly T[], size: number): T[][] => {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
};

/** `SET` of an upsert adding the new sums to the stored ones. */
const addSums = (table: 'usage_rollups' | 'usage_rollups_daily') =>
  Object.fromEntries(
    ROLLUP_SUM_COLUMNS.map((c) => [c, sql<number>`${sql.ref(`${table}.${c}`)} + ${sql.ref(`excluded.${c}`)}`]),
  );

/**
 * Batches through Kysely: a multi-row INSERT built and compiled per chunk. Used over a
 * transaction; the store's own ledger gets its dialect's fixed-statement writer instead
 * (src/store/sqlite/ledger-writer.ts, src/store/postgres/ledger-writer.ts), same semantics.
 */
function kyselyBatchWriter(db: Kysely<LedgerDatabase>): BatchWriter {
  return async (generations, spendDeltas) => {
    if (generations.length === 0 && spendDeltas.length === 0) return;
    await db.transaction().execute(async (trx) => {
      const inserted = new Set<string>();
      for (const part of chunks(generations, ROWS_PER_INSERT)) {
        const rows = await trx
          .insertInto('generations')
          .values(part.map(toRow))
          .onConflict((oc) => oc.column('id').doNothing())
          .returning('id')
          .execute();
        for (const r of rows) inserted.add(r.id);
      }
      for (const part of chunks(freshSums(spendDeltas, inserted), ROWS_PER_INSERT)) {
        await trx
          .insertInto('spend_counters')
          .values(part)
          .onConflict((oc) =>
            oc.columns(['account', 'window']).doUpdateSet({
              amount_usd: sql<number>`spend_counters.amount_usd + excluded.amount_usd`,
              byok_usd: sql<number>`spend_counters.byok_usd + excluded.byok_usd`,
            }),
          )
          .execute();
      }
      const hourly = rollupSums(generations, inserted);
      for (const part of chunks(hourly, ROWS_PER_INSERT))
        await trx
          .insertInto('usage_rollups')
          .values(part)
          .onConflict((oc) => oc.columns([...ROLLUP_KEY_COLUMNS]).doUpdateSet(addSums('usage_rollups')))
          .execute();
      for (const part of chunks(dailySums(hourly), ROWS_PER_INSERT))
        await trx
          .insertInto('usage_rollups_daily')
          .values(part)
          .onConflict((oc) => oc.columns([...DAILY_ROLLUP_KEY_COLUMNS]).doUpdateSet(addSums('usage_rollups_daily')))
          .execute();
    });
  };
}

/** The ledger's tables: generations, spend counters and the hourly and daily rollups kept with them. */
type LedgerDatabase = AccountingDatabase & RollupTables;
type RollupTables = { usage_rollups: UsageRollupsTable; usage_rollups_daily: UsageRollupsDailyTable };

/**
 * Over any database that has the accounting tables (the store's `Database` once they are merged
 * in), or a transaction of one. `writeBatch` replaces the Kysely batch writer (see above).
 */
export function createLedgerRepository<DB extends AccountingDatabase>(
  database: Kysely<DB>,
  writeBatch?: BatchWriter,
): LedgerRepository {
  // Kysely's type is invariant in DB; the constraint guarantees these tables exist as typed.
  const db = database as unknown as Kysely<AccountingDatabase>;
  return {
    ...budgetLeaseMethods(db),
    writeBatch: writeBatch ?? kyselyBatchWriter(db.withTables<RollupTables>()),

    async spendFor(account, windows) {
      const result = new Map<string, WindowSpend>();
      if (windows.length === 0) return result;
      const rows = await db
        .selectFrom('spend_counters')
        .select(['window', 'amount_usd', 'byok_usd'])
        .where('account', '=', account)
        .where('window', 'in', [...windows])
        .execute();
      for (const r of rows) result.set(r.window, { amountUsd: Number(r.amount_usd), byokUsd: Number(r.byok_usd) });
      return result;
    },

    async usageFor(accounts, windows) {
      const result = new Map<string, Map<string, WindowSpend>>();
      if (accounts.length === 0 || windows.length === 0) return result;
      for (const part of chunks(accounts, 500)) {
        const rows = await db
          .selectFrom('spend_counters')
          .select(['account', 'window', 'amount_usd', 'byok_usd'])
          .where('account', 'in', part)
          .where('window', 'in', [...windows])
          .execute();
        for (const r of rows) {
          let perWindow = result.get(r.account);
          if (perWindow === undefined) {
            perWindow = new Map();
            result.set(r.account, perWindow);
          }
          perWindow.set(r.window, { amountUsd: Number(r.amount_usd), byokUsd: Number(r.byok_usd) });
        }
      }
      return result;
    },

    async findGeneration(id) {
      const row = await db.selectFrom('generations').selectAll().where('id', '=', id).executeTakeFirst();
      return row === undefined ? null : toRecord(row);
    },
  };
}
