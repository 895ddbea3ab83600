// The settle path with and without the ledger journal, in the same run, alternating: how many
// settles a second one process sustains (the meter's batched writes to a real SQLite file included)
// and the CPU each costs. docs/performance.md, "Ledger journal".
//
//   npx tsc -p tsconfig.json && node dist/bench/ledger-journal-bench.js [--seconds 5] [--rounds 3] [--chunk 200]
//
// Each round runs both modes for `--seconds`: settles are issued `--chunk` per macrotask (so the
// meter's 250 ms flush and the journal's fdatasync run as they would under load), every one a
// distinct generation with a cost. CPU is the process's user + system time (all threads) over the
// settles completed, the final flush included.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import { createMeter } from '../src/domain/accounting/meter.js';
import { systemClock } from '../src/domain/common/clock.js';
import { FileLedgerJournal } from '../src/store/ledger-journal/index.js';
import { openStore } from '../src/store/index.js';
import { apiKey, generation } from '../test/accounting/fixtures.js';

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '5' },
    rounds: { type: 'string', default: '3' },
    chunk: { type: 'string', default: '200' },
  },
});
const SECONDS = Number(values.seconds);
const ROUNDS = Number(values.rounds);
const CHUNK = Number(values.chunk);

interface Result {
  settles: number;
  perSecond: number;
  cpuUsPerSettle: number;
}

async function run(journal: boolean, dir: string, round: number): Promise<Result> {
  const store = openStore(`sqlite:${join(dir, `bench-${round}-${journal ? 'j' : 'n'}.db`)}`);
  await store.migrate();
  const file = journal
    ? new FileLedgerJournal({ dir: join(dir, `journal-${round}`), host: 'bench', pid: process.pid })
    : undefined;
  const meter = createMeter({ ledger: store.ledger, clock: systemClock, journal: file });
  const reservation = await meter.reserve(apiKey({ limit: null }), 0);
  let settles = 0;
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const end = t0 + SECONDS * 1000;
  while (performance.now() < end) {
    for (let i = 0; i < CHUNK; i++) {
      meter.settle(reservation, generation({ id: `gen-${round}-${journal ? 'j' : 'n'}-${settles}`, costUsd: 0.0001 }));
      settles += 1;
    }
    await nextTurn();
  }
  await meter.close();
  const elapsed = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(cpu0);
  await store.close();
  return { settles, perSecond: settles / elapsed, cpuUsPerSettle: (cpu.user + cpu.system) / settles };
}

const dir = mkdtempSync(join(tmpdir(), 'sy-journal-bench-'));
try {
  const rows: string[] = [];
  const totals = { off: [] as Result[], on: [] as Result[] };
  for (let round = 1; round <= ROUNDS; round++) {
    for (const journal of round % 2 === 1 ? [false, true] : [true, false]) {
      const r = await run(journal, dir, round);
      (journal ? totals.on : totals.off).push(r);
      rows.push(
        `| ${round} | ${journal ? 'on' : 'off'} | ${r.settles} | ${Math.round(r.perSecond)} | ${r.cpuUsPerSettle.toFixed(2)} |`,
      );
    }
  }
  const mean = (xs: Result[], f: (r: Result) => number) => xs.reduce((a, r) => a + f(r), 0) / xs.length;
  console.log('| round | journal | settles | settles/s | CPU µs/settle |');
  console.log('|---|---|---|---|---|');
  for (const row of rows) console.log(row);
  // The journal's own share: append (JSON + one write(2)) alone, then committed (truncate).
  const journal = new FileLedgerJournal({ dir: join(dir, 'journal-alone'), host: 'bench', pid: process.pid });
  const appendCpu0 = process.cpuUsage();
  const marks: number[] = [];
  const N = 20_000;
  for (let i = 0; i < N; i++)
    marks.push(journal.append(generation({ id: `gen-alone-${i}`, costUsd: 0.0001 }), Date.now()));
  const appendCpu = process.cpuUsage(appendCpu0);
  journal.committed(marks);
  journal.close(true);
  console.log(`journal append alone: ${((appendCpu.user + appendCpu.system) / N).toFixed(2)} µs CPU/record over ${N}`);
  for (const mode of ['off', 'on'] as const) {
    console.log(
      `mean ${mode}: ${Math.round(mean(totals[mode], (r) => r.perSecond))} settles/s, ` +
        `${mean(totals[mode], (r) => r.cpuUsPerSettle).toFixed(2)} µs CPU/settle`,
    );
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
