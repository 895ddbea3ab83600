// CPU per generation the SQLite ledger writer spends in its batch transaction, by what the schema
// and the writer maintain beside the row itself: the console's indexes on `generations`
// (migrations 008 and 013) and the hourly and daily usage rollups. Same run, modes alternating per
// round, a fresh database file per mode; the figure is the minimum over rounds (a busy machine
// only ever adds time).
//
//   npx tsc -p tsconfig.json && node dist/bench/ledger-row-bench.js [--rounds 6] [--batches 40] [--batch 200]
//
// Modes: `full` (what a server writes today), `no-rollups` (rollups off), `no-indexes` (the
// console's `generations_*` indexes dropped), `bare` (neither: the row, its primary key and the
// spend counters, as before the console existed).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { Migrator } from 'kysely';
import type { GenerationRecord, SpendDelta } from '../src/domain/accounting/types.js';
import { migrationProvider } from '../src/store/migrations/index.js';
import { openSqlite } from '../src/store/sqlite/connect.js';
import { sqliteBatchWriter } from '../src/store/sqlite/ledger-writer.js';
import { generation as generationFixture } from '../test/accounting/fixtures.js';

const { values } = parseArgs({
  options: {
    rounds: { type: 'string', default: '6' },
    batches: { type: 'string', default: '40' },
    batch: { type: 'string', default: '200' },
  },
});
const ROUNDS = Number(values.rounds);
const BATCHES = Number(values.batches);
const BATCH = Number(values.batch);

const MODES = ['full', 'no-rollups', 'no-indexes', 'bare'] as const;
type Mode = (typeof MODES)[number];

let seq = 0;
/** One batch of realistic rows (the accounting tests' builder), ids unique across the run, spread over a few models. */
function batch(): { generations: GenerationRecord[]; deltas: SpendDelta[] } {
  const generations: GenerationRecord[] = [];
  const deltas: SpendDelta[] = [];
  const createdAt = new Date().toISOString();
  for (let i = 0; i < BATCH; i++) {
    seq += 1;
    const g = generationFixture({
      id: `gen-${Date.now()}-${seq.toString(16).padStart(10, '0')}`,
      model: `openai/model-${seq % 4}`,
      streamed: seq % 2 === 0,
      createdAt,
    });
    generations.push(g);
    deltas.push({ generationId: g.id, account: g.keyHash, window: 'month:2026-11', amountUsd: g.costUsd, byokUsd: 0 });
  }
  return { generations, deltas };
}

async function open(mode: Mode, dir: string) {
  const conn = openSqlite(`sqlite:${join(dir, `${mode}.db`)}`, { checkpointWorker: false });
  const { error } = await new Migrator({ db: conn.db, provider: migrationProvider }).migrateToLatest();
  if (error !== undefined) throw error instanceof Error ? error : new Error('migration failed', { cause: error });
  if (mode === 'no-indexes' || mode === 'bare') {
    const names = conn.raw
      .prepare(`SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'generations' AND sql IS NOT NULL`)
      .pluck()
      .all() as string[];
    for (const name of names) conn.raw.exec(`DROP INDEX "${name}"`);
  }
  const rollups = mode === 'no-rollups' || mode === 'bare' ? 'none' : 'hourly+daily';
  return { conn, write: sqliteBatchWriter(conn.raw, conn.db, { rollups }) };
}

const dir = mkdtempSync(join(tmpdir(), 'switchyard-ledger-rows-'));
try {
  const targets = new Map<Mode, Awaited<ReturnType<typeof open>>>();
  for (const mode of MODES) targets.set(mode, await open(mode, dir));
  const costs = new Map<Mode, number[]>(MODES.map((m) => [m, []]));
  for (let r = 0; r < ROUNDS; r++) {
    // Rotate the order each round so no mode always runs after the same one.
    for (let i = 0; i < MODES.length; i++) {
      const mode = MODES[(i + r) % MODES.length] as Mode;
      const target = targets.get(mode);
      if (target === undefined) continue;
      const work = Array.from({ length: BATCHES }, batch);
      const before = process.cpuUsage();
      for (const { generations, deltas } of work) await target.write(generations, deltas);
      const used = process.cpuUsage(before);
      costs.get(mode)?.push((used.user + used.system) / (BATCHES * BATCH));
    }
  }
  for (const mode of MODES) {
    const c = costs.get(mode) ?? [];
    const sorted = [...c].sort((a, b) => a - b);
    process.stdout.write(
      `${mode.padEnd(11)} CPU per generation written: min ${Math.min(...c).toFixed(2)} µs, median ${(sorted[Math.floor(sorted.length / 2)] ?? 0).toFixed(2)} µs (${ROUNDS} rounds × ${BATCHES} batches of ${BATCH})\n`,
    );
  }
  for (const { conn } of targets.values()) await conn.db.destroy();
} finally {
  rmSync(dir, { recursive: true, force: true });
}
