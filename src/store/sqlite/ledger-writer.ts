import type BetterSqlite3 from 'better-sqlite3';
import type { Kysely } from 'kysely';
import type { GenerationRecord, SpendDelta } from '../../domain/accounting/types.js';
import { checkpointerOf } from './checkpointer.js';
import { freshSums, GENERATION_COLUMNS, rowValues, type BatchWriter } from '../repositories/ledger-rows.js';
import {
  DAILY_ROLLUP_UPSERT_SQLITE,
  dailyRollupValues,
  dailySums,
  ROLLUP_UPSERT_SQLITE,
  rollupSums,
  rollupValues,
  type RollupLevels,
} from '../repositories/rollup-rows.js';

const INSERT_GENERATION =
  `INSERT INTO "generations" (${GENERATION_COLUMNS.map((c) => `"${c}"`).join(', ')}) ` +
  `VALUES (${GENERATION_COLUMNS.map(() => '?').join(', ')}) ON CONFLICT ("id") DO NOTHING`;

const ADD_SPEND =
  'INSERT INTO "spend_counters" ("account", "window", "amount_usd", "byok_usd") VALUES (?, ?, ?, ?) ' +
  'ON CONFLICT ("account", "window") DO UPDATE SET ' +
  '"amount_usd" = "spend_counters"."amount_usd" + "excluded"."amount_usd", ' +
  '"byok_usd" = "spend_counters"."byok_usd" + "excluded"."byok_usd"';

interface Statements {
  insertGeneration: BetterSqlite3.Statement;
  addSpend: BetterSqlite3.Statement;
  addRollup: BetterSqlite3.Statement;
  addDailyRollup: BetterSqlite3.Statement;
}

/** Inserts one generation (its `toRow` values by position, bound from the array); false when its id was already stored. */
function insertGeneration(statement: BetterSqlite3.Statement, g: GenerationRecord): boolean {
  return statement.run(rowValues(g)).changes === 1;
}

/**
 * Ledger batches on SQLite without Kysely: four statements prepared once (a single-row insert of
 * a generation that skips a stored id, a single-row counter upsert, single-row hourly and daily
 * rollup upserts), run in one better-sqlite3 transaction. Nothing is built or compiled per batch
 * and nothing awaits between the statements. The connection is taken through Kysely (`connection()`), which on SQLite waits
 * for the one connection's mutex, so a Kysely transaction in progress is never joined.
 */
export function sqliteBatchWriter<DB>(
  raw: BetterSqlite3.Database,
  kysely: Kysely<DB>,
  // Fewer rollup levels: only the benchmark's baselines (bench/analytics-bench.ts) ask for them.
  options: { rollups?: RollupLevels } = {},
): BatchWriter {
  const rollups = options.rollups ?? 'hourly+daily';
  // Prepared on first use: the tables exist only once the migrations have run.
  let statements: Statements | null = null;
  const prepared = (): Statements =>
    (statements ??= {
      insertGeneration: raw.prepare(INSERT_GENERATION),
      addSpend: raw.prepare(ADD_SPEND),
      addRollup: raw.prepare(ROLLUP_UPSERT_SQLITE),
      addDailyRollup: raw.prepare(DAILY_ROLLUP_UPSERT_SQLITE),
    });

  const write = raw.transaction((generations: readonly GenerationRecord[], deltas: readonly SpendDelta[]) => {
    const { insertGeneration: insert, addSpend, addRollup, addDailyRollup } = prepared();
    const inserted = new Set<string>();
    for (const g of generations) if (insertGeneration(insert, g)) inserted.add(g.id);
    for (const sum of freshSums(deltas, inserted)) addSpend.run(sum.account, sum.window, sum.amount_usd, sum.byok_usd);
    if (rollups === 'none') return;
    const hourly = rollupSums(generations, inserted);
    for (const sum of hourly) addRollup.run(...rollupValues(sum));
    if (rollups === 'hourly+daily') for (const sum of dailySums(hourly)) addDailyRollup.run(...dailyRollupValues(sum));
  });

  // WAL checkpoints run on a worker thread (connect.ts); it is told when a batch committed.
  const checkpointer = checkpointerOf(raw);

  return async (generations, deltas) => {
    if (generations.length === 0 && deltas.length === 0) return;
    await kysely.connection().execute(async () => {
      // better-sqlite3 would nest in an open transaction (a savepoint) and commit with it; a batch is its own.
      if (raw.inTransaction) throw new Error('ledger batch: a transaction is already open on the SQLite connection');
      write(generations, deltas);
    });
    checkpointer?.afterCommit();
  };
}
