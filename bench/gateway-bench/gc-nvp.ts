/**
 * Sums V8's `--trace-gc-nvp` lines per window: how many scavenges and mark-compacts ran, their
 * main-thread pause, the helper threads' time (`background.*`), and the bytes scavenges copied
 * within the young generation and promoted to the old one. Load-independent counts for "why does
 * a call cost more at higher concurrency".
 *   node --trace-gc-nvp dist/bench/gateway-bench/inproc.js --modes json --concurrency 64 > gc.log 2> windows.log
 *   (run inproc with BENCH_GC=1: it prints `gc-window <label> from=<ms> to=<ms> calls=<n>` on stderr)
 *   node dist/bench/gateway-bench/gc-nvp.js gc.log windows.log
 * With no windows file, the whole log is one window and `--calls N` divides it.
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

const isMain = process.argv[1]?.endsWith('gc-nvp.js') === true;
if (isMain) {
  const { values, positionals } = parseArgs({ allowPositionals: true, options: { calls: { type: 'string' } } });
  const events = parseNvp(readFileSync(positionals[0] ?? '', 'utf8'));
  const windowsFile = positionals[1];
  if (windowsFile === undefined) {
    process.stdout.write(`${perCall('whole log', tally(events, 0, Infinity), Number(values.calls ?? 1))}\n`);
  } else {
    const WINDOW = /gc-window (\S+) from=([\d.]+) to=([\d.]+) calls=(\d+)/;
    for (const line of readFileSync(windowsFile, 'utf8').split('\n')) {
      const m = WINDOW.exec(line);
      if (m === null) continue;
      process.stdout.write(`${perCall(m[1] ?? '', tally(events, Number(m[2]), Number(m[3])), Number(m[4]))}\n`);
    }
  }
}
