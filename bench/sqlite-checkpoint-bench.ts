// Main-thread time of ledger batch commits on SQLite under sustained writes: WAL checkpoints
// inside the commits (SQLite's default, wal_autocheckpoint=1000) against checkpoints on the
// worker thread (src/store/sqlite/checkpointer.ts), in the same run, alternating; `none` (no
// checkpoints at all, the WAL grows) is the floor.
//
//   npx tsc -p tsconfig.json && node dist/bench/sqlite-checkpoint-bench.js [--seconds 15] [--rounds 2]
//     [--batch 200] [--every 20] [--gap 1000] [--modes main,worker,none] [--dir DIR] [--out bench/results]
//
// Each mode writes `--batch` generations (and their spend deltas) every `--every` ms into a fresh
// database file through the store's own batch writer. Per commit it times the whole awaited
// writeBatch on the main thread; it also records the largest event-loop delay, the WAL file size
// (sampled every 50 ms) and, for the worker, the RSS it adds. Figures go to stdout and to
// bench/results/sqlite-checkpoint-<time>.md.
import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import { Migrator } from 'kysely';
import type { GenerationRecord, SpendDelta } from '../src/domain/accounting/types.js';
import { migrationProvider } from '../src/store/migrations/index.js';
import { openSqlite } from '../src/store/sqlite/connect.js';
import type { CheckpointResult } from '../src/store/sqlite/checkpointer.js';
import { sqliteBatchWriter } from '../src/store/sqlite/ledger-writer.js';
import { generation as generationFixture } from '../test/accounting/fixtures.js';

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '15' },
    rounds: { type: 'string', default: '2' },
    batch: { type: 'string', default: '200' },
    every: { type: 'string', default: '20' },
    gap: { type: 'string', default: '1000' },
    modes: { type: 'string', default: 'main,worker' },
    dir: { type: 'string' },
    out: { type: 'string', default: 'bench/results' },
  },
});
const SECONDS = Number(values.seconds);
const ROUNDS = Number(values.rounds);
const BATCH = Number(values.batch);
const EVERY_MS = Number(values.every);
const GAP_MS = Number(values.gap);
const MODES = values.modes.split(',').filter((m): m is Mode => m === 'main' || m === 'worker' || m === 'none');

/** main: SQLite's automatic checkpoints in commits; worker: checkpointer.ts; none: no checkpoints at all (the floor). */
type Mode = 'main' | 'worker' | 'none';

interface ModeResult {
  mode: Mode;
  batches: number;
  commitMs: number[];
  maxLoopDelayMs: number;
  walMaxBytes: number;
  walEndBytes: number;
  checkpoints: number;
  workerMaxMs: number;
  workerRssMb: number | null;
}

let seq = 0;
/** A realistic generation row (the accounting tests' builder) with an id unique across runs. */
function generation(): GenerationRecord {
  seq += 1;
  return generationFixture({
    id: `gen-bench-${seq.toString(36).padStart(8, '0')}-${Math.random().toString(36).slice(2, 12)}`,
    streamed: seq % 2 === 0,
    createdAt: new Date().toISOString(),
  });
}

function batch(): { generations: GenerationRecord[]; deltas: SpendDelta[] } {
  const generations: GenerationRecord[] = [];
  const deltas: SpendDelta[] = [];
  for (let i = 0; i < BATCH; i++) {
    const g = generation();
    generations.push(g);
    deltas.push({ generationId: g.id, account: g.keyHash, window: 'month:2026-11', amountUsd: g.costUsd, byokUsd: 0 });
    deltas.push({
      generationId: g.id,
      account: 'member:user_a',
      window: 'day:2026-11-22',
      amountUsd: g.costUsd,
      byokUsd: 0,
    });
  }
  return { generations, deltas };
}

function walBytes(file: string): number {
  try {
    return statSync(`${file}-wal`).size;
  } catch {
    return 0;
  }
}

async function runMode(mode: Mode, dir: string): Promise<ModeResult> {
  const file = join(dir, `${mode}-${Date.now()}.db`);
  const checkpoints: CheckpointResult[] = [];
  const conn = openSqlite(`sqlite:${file}`, {
    checkpointWorker:
      mode === 'worker' ? { minGapMs: GAP_MS, startDelayMs: 60_000, onCheckpoint: (c) => checkpoints.push(c) } : false,
  });
  if (mode === 'none') conn.raw.pragma('wal_autocheckpoint = 0');
  const { error } = await new Migrator({ db: conn.db, provider: migrationProvider }).migrateToLatest();
  if (error !== undefined) throw error instanceof Error ? error : new Error('migration failed', { cause: error });
  let workerRssMb: number | null = null;
  if (conn.checkpointer !== null) {
    global.gc?.();
    const before = process.memoryUsage.rss();
    await conn.checkpointer.startNow();
    await sleep(500);
    global.gc?.();
    workerRssMb = (process.memoryUsage.rss() - before) / 1024 / 1024;
  }
  const write = sqliteBatchWriter(conn.raw, conn.db);
  const commitMs: number[] = [];
  let walMaxBytes = 0;
  const sampler = setInterval(() => (walMaxBytes = Math.max(walMaxBytes, walBytes(file))), 50);
  const loop = monitorEventLoopDelay({ resolution: 1 });
  loop.enable();
  const end = performance.now() + SECONDS * 1000;
  let next = performance.now();
  while (performance.now() < end) {
    const { generations, deltas } = batch();
    const started = performance.now();
    await write(generations, deltas);
    commitMs.push(performance.now() - started);
    next += EVERY_MS;
    const wait = next - performance.now();
    if (wait > 0) await sleep(wait);
    else next = performance.now();
  }
  loop.disable();
  clearInterval(sampler);
  const result: ModeResult = {
    mode,
    batches: commitMs.length,
    commitMs,
    maxLoopDelayMs: loop.max / 1e6,
    walMaxBytes: Math.max(walMaxBytes, walBytes(file)),
    walEndBytes: walBytes(file),
    checkpoints: checkpoints.length,
    workerMaxMs: Math.max(0, ...checkpoints.map((c) => c.ms)),
    workerRssMb,
  };
  await conn.db.destroy();
  await conn.checkpointer?.exited;
  return result;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

function row(r: ModeResult): string {
  const s = [...r.commitMs].sort((a, b) => a - b);
  const mb = (b: number): string => (b / 1024 / 1024).toFixed(1);
  return (
    `| ${r.mode} | ${r.batches} | ${percentile(s, 50).toFixed(2)} | ${percentile(s, 99).toFixed(2)} | ${(s.at(-1) ?? 0).toFixed(2)} | ` +
    `${s.filter((x) => x > 20).length} | ${r.maxLoopDelayMs.toFixed(1)} | ${mb(r.walMaxBytes)} | ${mb(r.walEndBytes)} | ` +
    `${r.mode === 'worker' ? `${r.checkpoints} / ${r.workerMaxMs.toFixed(1)}` : '-'} | ${r.workerRssMb === null ? '-' : r.workerRssMb.toFixed(1)} |`
  );
}

const dir = values.dir ?? mkdtempSync(join(tmpdir(), 'switchyard-checkpoint-bench-'));
mkdirSync(dir, { recursive: true });
const results: ModeResult[] = [];
try {
  for (let round = 0; round < ROUNDS; round++) {
    const order = round % 2 === 0 ? MODES : [...MODES].reverse();
    for (const mode of order) {
      const r = await runMode(mode, dir);
      results.push(r);
      process.stderr.write(`round ${round + 1} ${row(r)}\n`);
    }
  }
} finally {
  if (values.dir === undefined) rmSync(dir, { recursive: true, force: true });
}

const lines = [
  `# SQLite WAL checkpoints: main thread vs worker (${new Date().toISOString()})`,
  '',
  `${BATCH}-generation ledger batches (+${2 * BATCH} spend deltas) every ${EVERY_MS} ms for ${SECONDS} s per mode, ` +
    `${ROUNDS} rounds alternating; worker checkpoints after a commit at most every ${GAP_MS} ms; file in ${values.dir ?? tmpdir()}. ` +
    'Commit = main-thread time of one awaited writeBatch (ms).',
  '',
  '| checkpoints | batches | commit p50 | p99 | max | commits > 20 ms | max loop delay (ms) | WAL max (MB) | WAL at end (MB) | worker checkpoints / slowest (ms) | worker RSS (MB) |',
  '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
  ...results.map(row),
  '',
];
const text = lines.join('\n');
process.stdout.write(`${text}\n`);
mkdirSync(values.out, { recursive: true });
writeFileSync(
  join(values.out, `sqlite-checkpoint-${new Date().toISOString().replace(/[:.]/g, '').slice(0, 15)}Z.md`),
  text,
);
