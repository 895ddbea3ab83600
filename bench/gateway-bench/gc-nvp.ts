/**
 * Sums V8's `--trace-gc-nvp` lines per window: how many scavenges and mark-compacts ran, their
 * main-thread pause, the helper threads' time (`background.*`), and the bytes scavenges copied
 * within the young generation and promoted to the old one. Load-independent counts for "why does
 * a call cost more at higher concurrency".
 *   BENCH_GC=1 node --trace-gc-nvp --trace-pretenuring --trace-pretenuring-statistics \
 *     dist/bench/gateway-bench/inproc.js --modes json --concurrency 64 --log-level warn > gc.log 2>&1
 *   node dist/bench/gateway-bench/gc-nvp.js gc.log
 * With BENCH_GC=1, inproc prints `gc-window <label> from=<ms> to=<ms> calls=<n>` on stderr for
 * each mode's measured rounds. The two pretenuring flags (V8 prints its decisions only with both)
 * add the count of allocation sites V8 switched to allocating in the old generation. Several files
 * are read as one; with no window line, the whole log is one window and `--calls N` divides it.
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';

export interface GcTally {
  scavenges: number;
  markCompacts: number;
  /** Main-thread pause, ms. */
  pauseMs: number;
  /** Helper threads' GC time, ms (parallel scavenge, concurrent marking and sweeping). */
  backgroundMs: number;
  promotedBytes: number;
  copiedBytes: number;
}

const LINE = /^\[(\d+:0x[0-9a-f]+)\]\s+(\d+) ms: (.*)$/;

/**
 * Each nvp line of the busiest isolate (the main thread's; a worker thread's lines are left out)
 * as its time (ms since the isolate started) and its name=value fields.
 */
export function parseNvp(text: string): { ms: number; fields: Map<string, string> }[] {
  const byIsolate = new Map<string, { ms: number; fields: Map<string, string> }[]>();
  for (const line of text.split('\n')) {
    const m = LINE.exec(line);
    if (m === null) continue;
    const fields = new Map<string, string>();
    for (const pair of (m[3] ?? '').split(' ')) {
      const eq = pair.indexOf('=');
      if (eq > 0) fields.set(pair.slice(0, eq), pair.slice(eq + 1));
    }
    const isolate = m[1] ?? '';
    const list = byIsolate.get(isolate) ?? [];
    list.push({ ms: Number(m[2]), fields });
    byIsolate.set(isolate, list);
  }
  return [...byIsolate.values()].reduce((a, b) => (b.length > a.length ? b : a), []);
}

export function tally(events: ReturnType<typeof parseNvp>, from: number, to: number): GcTally {
  const t: GcTally = { scavenges: 0, markCompacts: 0, pauseMs: 0, backgroundMs: 0, promotedBytes: 0, copiedBytes: 0 };
  for (const { ms, fields } of events) {
    if (ms < from || ms > to) continue;
    const kind = fields.get('gc');
    if (kind === 's') t.scavenges++;
    else if (kind === 'mc' || kind === 'mmc') t.markCompacts++;
    t.pauseMs += Number(fields.get('pause') ?? 0);
    for (const [name, value] of fields) if (name.startsWith('background.')) t.backgroundMs += Number(value);
    t.promotedBytes += Number(fields.get('promoted') ?? 0);
    t.copiedBytes += Number(fields.get('new_space_survived') ?? 0);
  }
  return t;
}

export function perCall(label: string, t: GcTally, calls: number): string {
  const per = (n: number) => n / calls;
  return (
    `${label}: per 1000 calls ${(per(t.scavenges) * 1000).toFixed(1)} scavenges, ${(per(t.markCompacts) * 1000).toFixed(2)} mark-compacts; ` +
    `per call pause ${(per(t.pauseMs) * 1000).toFixed(1)} µs, helper threads ${(per(t.backgroundMs) * 1000).toFixed(1)} µs, ` +
    `promoted ${(per(t.promotedBytes) / 1024).toFixed(2)} KB, survived in young ${(per(t.copiedBytes) / 1024).toFixed(2)} KB`
  );
}

/**
 * Allocation sites V8 switched to allocating in the old generation (`--trace-pretenuring` lines
 * ending `=> tenure`, whole log: they carry no time).
 */
export function tenureDecisions(text: string): number {
  let n = 0;
  for (const line of text.split('\n'))
    if (line.includes('pretenuring: AllocationSite') && line.endsWith('=> tenure')) n++;
  return n;
}

const WINDOW = /gc-window (\S+) from=([\d.]+) to=([\d.]+) calls=(\d+)/;

const isMain = process.argv[1]?.endsWith('gc-nvp.js') === true;
if (isMain) {
  const { values, positionals } = parseArgs({ allowPositionals: true, options: { calls: { type: 'string' } } });
  // The nvp lines (stdout) and inproc's windows and V8's pretenuring trace (stderr), in one or two files.
  const text = positionals.map((file) => readFileSync(file, 'utf8')).join('\n');
  const events = parseNvp(text);
  if (text.includes('pretenuring: '))
    process.stdout.write(`allocation sites tenured (whole run): ${tenureDecisions(text)}\n`);
  const windows = text.split('\n').flatMap((line) => {
    const m = WINDOW.exec(line);
    return m === null ? [] : [{ label: m[1] ?? '', from: Number(m[2]), to: Number(m[3]), calls: Number(m[4]) }];
  });
  if (windows.length === 0)
    process.stdout.write(`${perCall('whole log', tally(events, 0, Infinity), Number(values.calls ?? 1))}\n`);
  for (const w of windows) process.stdout.write(`${perCall(w.label, tally(events, w.from, w.to), w.calls)}\n`);
}
