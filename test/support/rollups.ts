// Reads of the usage rollup tables for the suites that check them against each other.
import assert from 'node:assert/strict';
import type { Kysely } from 'kysely';
import { ROLLUP_SUM_COLUMNS } from '../../src/store/repositories/rollup-rows.js';
import type { UsageRollupsTable } from '../../src/store/schema-console.js';

type SumColumn = (typeof ROLLUP_SUM_COLUMNS)[number];
export type Sums = Record<SumColumn, number>;

/** The tables these helpers read (any database that has them, e.g. the store's `Database`). */
export interface RollupDatabase {
  usage_rollups: UsageRollupsTable;
  usage_rollups_daily: Omit<UsageRollupsTable, 'hour'> & { day: string };
}

const idOf = (day: string, r: Omit<UsageRollupsTable, 'hour' | SumColumn>): string =>
  [day, r.key_hash, r.workspace_id, r.model, r.provider_id, r.upstream_model].join(' | ');

const sumsOf = (r: Record<SumColumn, number | string>): Sums =>
  Object.fromEntries(ROLLUP_SUM_COLUMNS.map((c) => [c, Number(r[c])])) as Sums;

/** Daily rows by `day | key | workspace | model | provider | upstream model`. */
export async function dailyRollups<DB extends RollupDatabase>(database: Kysely<DB>): Promise<Map<string, Sums>> {
  const db = database as unknown as Kysely<RollupDatabase>;
  const rows = await db.selectFrom('usage_rollups_daily').selectAll().execute();
  return new Map(rows.map((r) => [idOf(r.day, r), sumsOf(r)]));
}

/** Hourly rows summed per day, keyed as `dailyRollups`. */
export async function hourlyRollupsByDay<DB extends RollupDatabase>(database: Kysely<DB>): Promise<Map<string, Sums>> {
  const db = database as unknown as Kysely<RollupDatabase>;
  const rows = await db.selectFrom('usage_rollups').selectAll().execute();
  const out = new Map<string, Sums>();
  for (const r of rows) {
    const id = idOf(r.hour.slice(0, 10), r);
    const sums = sumsOf(r);
    const seen = out.get(id);
    if (seen === undefined) out.set(id, sums);
    else for (const c of ROLLUP_SUM_COLUMNS) seen[c] += sums[c];
  }
  return out;
}

/** Same rows; counts and tokens equal, money and times equal up to float rounding of the summing order. */
export function assertSameSums(actual: Map<string, Sums>, expected: Map<string, Sums>): void {
  assert.deepEqual([...actual.keys()].sort(), [...expected.keys()].sort());
  for (const [id, want] of expected) {
    const got = actual.get(id);
    assert.ok(got, id);
    for (const c of ROLLUP_SUM_COLUMNS) {
      if (c === 'cost_usd' || c === 'generation_time_ms')
        assert.ok(
          Math.abs(got[c] - want[c]) <= 1e-9 * Math.max(1, Math.abs(want[c])),
          `${id} ${c}: ${got[c]} ≈ ${want[c]}`,
        );
      else assert.equal(got[c], want[c], `${id} ${c}`);
    }
  }
}
