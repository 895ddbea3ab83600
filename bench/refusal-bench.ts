// What recording a refused call costs, against a normal call's settle, in the same run and
// alternating: CPU per operation (the meter's batched writes to a real database included) and
// the rows each leaves in the store. docs/metering.md, "Refused calls".
//
//   npx tsc -p tsconfig.json && node dist/bench/refusal-bench.js [--ops 20000] [--rounds 3] [--pg postgres://…]
//
// Modes, each `--ops` operations per round, `--chunk` per macrotask:
//   settle    a served call's settle (a generation with a cost: its row, spend counters, rollups)
//   refusal   a refusal under the per-key rate: a row of its own (RefusalRecorder.record)
//   flood     one key's refusals at the default rate of 60 a minute: all but 60 are summed in memory
// CPU is the process's user + system time (all threads) over the operations, the final flush included.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import { createMeter } from '../src/domain/accounting/meter.js';
import { RefusalRecorder } from '../src/domain/accounting/refusal-recorder.js';
import { systemClock } from '../src/domain/common/clock.js';
import { errors } from '../src/errors/index.js';
import { openStore, type Store } from '../src/store/index.js';
import { apiKey, generation } from '../test/accounting/fixtures.js';

const { values } = parseArgs({
  options: {
    ops: { type: 'string', default: '20000' },
    rounds: { type: 'string', default: '3' },
    chunk: { type: 'string', default: '200' },
    pg: { type: 'string' },
  },
});
const OPS = Number(values.ops);
const ROUNDS = Number(values.rounds);
const CHUNK = Number(values.chunk);

type Mode = 'settle' | 'refusal' | 'flood';
const MODES: Mode[] = ['settle', 'refusal', 'flood'];

interface Result {
  cpuUsPerOp: number;
  rowsPer1000: number;
}

const refusalError = errors.paymentRequired('Key spending limit reached', { limit: 1, limit_reset: 'daily' });

async function rowCount(store: Store): Promise<number> {
  return (await store.analytics.listGenerations({}, null, 10_000_000)).length;
}

async function run(store: Store, mode: Mode, round: number): Promise<Result> {
  const meter = createMeter({ ledger: store.ledger, clock: systemClock });
  const recorder = new RefusalRecorder({
    meter,
    clock: systemClock,
    perKeyPerMinute: mode === 'flood' ? 60 : Number.MAX_SAFE_INTEGER,
  });
  const key = apiKey({ hash: `${mode}-${round}`.padEnd(64, '0') });
  const reservation = await meter.reserve(apiKey({ limit: null }), 0);
  const before = await rowCount(store);
  const cpu0 = process.cpuUsage();
  for (let done = 0; done < OPS;) {
    for (let i = 0; i < CHUNK && done < OPS; i++, done++) {
      if (mode === 'settle')
        meter.settle(reservation, generation({ id: `gen-${mode}-${round}-${done}`, costUsd: 0.0001 }));
      else
        recorder.record({
          key,
          model: 'openai/gpt-test',
          apiType: 'completions',
          path: '/api/v1/chat/completions',
          requestId: `req_${done}`,
          streamed: false,
          elapsedMs: 1,
          error: refusalError,
        });
    }
    await nextTurn();
  }
  recorder.close();
  await meter.close();
  const cpu = process.cpuUsage(cpu0);
  const rows = (await rowCount(store)) - before;
  return { cpuUsPerOp: (cpu.user + cpu.system) / OPS, rowsPer1000: (rows / OPS) * 1000 };
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? NaN;
};

async function bench(label: string, url: string): Promise<void> {
  const store = openStore(url);
  await store.migrate();
  const results = new Map<Mode, Result[]>(MODES.map((m) => [m, []]));
  try {
    for (let round = 0; round < ROUNDS; round++)
      for (const mode of round % 2 === 0 ? MODES : [...MODES].reverse())
        results.get(mode)?.push(await run(store, mode, round));
  } finally {
    await store.close();
  }
  console.log(`\n${label}: ${OPS} operations per mode and round, ${ROUNDS} rounds (median)`);
  console.log('| mode | CPU µs per operation | rows stored per 1000 |');
  console.log('|---|---|---|');
  for (const mode of MODES) {
    const rs = results.get(mode) ?? [];
    console.log(
      `| ${mode} | ${median(rs.map((r) => r.cpuUsPerOp)).toFixed(1)} | ${median(rs.map((r) => r.rowsPer1000)).toFixed(1)} |`,
    );
  }
}

const dir = mkdtempSync(join(tmpdir(), 'refusal-bench-'));
try {
  await bench('SQLite', `sqlite:${join(dir, 'bench.db')}`);
  if (values.pg !== undefined) await bench('PostgreSQL', values.pg);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
