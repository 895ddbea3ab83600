// Main-thread time of the ledger journal per call and per flush tick: `append` (the record's
// encoding and its write(2)) and `committed` (what the journal does once a batch is in the store),
// for this build's journal and, with `--base <dist>`, another build's, alternating per round in
// one process. Each tick appends `--batch` records, asks for the background fdatasync and lets it
// finish, then commits them all, as the meter's flush does. Times are wall-clock of the
// synchronous calls (what the event loop waits), so a blocking system call counts while it blocks.
//
//   npx tsc -p tsconfig.json && node dist/bench/ledger-journal-commit-bench.js \
//     [--base /path/to/other/dist] [--rounds 6] [--ticks 40] [--batch 200]
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import type { GenerationRecord, JournalMark, LedgerJournal } from '../src/domain/accounting/types.js';
import { FileLedgerJournal, type FileJournalOptions } from '../src/store/ledger-journal/index.js';
import { generation } from '../test/accounting/fixtures.js';

const { values } = parseArgs({
  options: {
    base: { type: 'string' },
    rounds: { type: 'string', default: '6' },
    ticks: { type: 'string', default: '40' },
    batch: { type: 'string', default: '200' },
  },
});
const ROUNDS = Number(values.rounds);
const TICKS = Number(values.ticks);
const BATCH = Number(values.batch);

type JournalClass = new (options: FileJournalOptions) => LedgerJournal;
const builds = new Map<string, JournalClass>([['this build', FileLedgerJournal]]);
if (values.base !== undefined) {
  const url = pathToFileURL(resolve(values.base, 'src/store/ledger-journal/index.js')).href;
  const mod = (await import(url)) as { FileLedgerJournal: JournalClass };
  builds.set('base', mod.FileLedgerJournal);
}

interface Figures {
  appendUs: number[];
  commitUs: number[];
}

const records: GenerationRecord[] = Array.from({ length: BATCH }, () =>
  generation({ userAgent: 'claude-cli/2.1.0 (external, cli)', sessionId: 'sess-1' }),
);

async function run(Journal: JournalClass, dir: string, into: Figures): Promise<void> {
  const journal = new Journal({ dir, host: 'bench', pid: process.pid });
  let appendNs = 0n;
  for (let t = 0; t < TICKS; t++) {
    const marks: JournalMark[] = [];
    const at = Date.now();
    const start = process.hrtime.bigint();
    for (const g of records) marks.push(journal.append(g, at));
    appendNs += process.hrtime.bigint() - start;
    journal.sync();
    // The batch's transaction takes a while; the fdatasync finishes meanwhile.
    await sleep(15);
    const before = process.hrtime.bigint();
    journal.committed(marks);
    into.commitUs.push(Number(process.hrtime.bigint() - before) / 1000);
  }
  into.appendUs.push(Number(appendNs) / 1000 / (TICKS * BATCH));
  journal.close(true);
  await sleep(50);
}

const median = (xs: readonly number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
const pct = (xs: readonly number[], p: number): number =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))] ?? 0;

const root = mkdtempSync(join(tmpdir(), 'switchyard-journal-commit-'));
try {
  const figures = new Map<string, Figures>([...builds.keys()].map((name) => [name, { appendUs: [], commitUs: [] }]));
  const names = [...builds.keys()];
  for (let r = 0; r < ROUNDS; r++) {
    for (let i = 0; i < names.length; i++) {
      const name = names[(i + r) % names.length] ?? '';
      const Journal = builds.get(name);
      const into = figures.get(name);
      if (Journal === undefined || into === undefined) continue;
      await run(Journal, join(root, `${r}-${i}`), into);
    }
  }
  for (const [name, f] of figures) {
    process.stdout.write(
      `${name.padEnd(10)} append per record: min ${Math.min(...f.appendUs).toFixed(2)} µs, median ${median(f.appendUs).toFixed(2)} µs; ` +
        `committed per tick: median ${median(f.commitUs).toFixed(0)} µs, p90 ${pct(f.commitUs, 0.9).toFixed(0)} µs, max ${Math.max(...f.commitUs).toFixed(0)} µs ` +
        `(${ROUNDS} rounds × ${TICKS} ticks of ${BATCH})\n`,
    );
  }
} finally {
  rmSync(root, { recursive: true, force: true });
}
