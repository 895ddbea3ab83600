/**
 * Builds (or settings) compared with the in-process bench, alternated: each `--run LABEL=DIR`
 * (optionally `,NAME=VALUE…` for environment variables of that run) runs `DIR/dist/bench/
 * gateway-bench/inproc.js` with the arguments after `--`, in turn, for `--sets` sets whose order
 * reverses every set. Each run is pinned to one core with `taskset` (`--core`, default 1), as the
 * peer benchmark pins its gateway: on a machine shared with other work an unpinned run of one
 * build spreads over both cores and its minimum moves by a third between runs. Prints, per cell
 * (surface and mode), each run's minimum CPU per call, their median per label, and for every label
 * after the first the median of its per-set ratios to the first (one set's runs are seconds apart,
 * so they share the machine's state).
 *   node dist/bench/gateway-bench/inproc-ab.js --run base=/work/wt/base --run head=. --sets 8 -- --modes json --rounds 5 --per-round 300
 *   node dist/bench/gateway-bench/inproc-ab.js --run on=. --run off=.,SWITCHYARD_LEDGER_JOURNAL_DIR=off -- --modes json
 */
import { spawnSync } from 'node:child_process';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { median } from './stats.js';

interface Run {
  label: string;
  dir: string;
  env: Record<string, string>;
}

const { values, positionals } = parseArgs({
  options: {
    run: { type: 'string', multiple: true, default: [] },
    sets: { type: 'string', default: '6' },
    core: { type: 'string', default: '1' },
  },
  allowPositionals: true,
});

/** `LABEL=DIR[,NAME=VALUE…]`. */
function parseRun(spec: string): Run {
  const [head = '', ...vars] = spec.split(',');
  const eq = head.indexOf('=');
  if (eq <= 0) throw new Error(`--run wants LABEL=DIR[,NAME=VALUE…], got "${spec}"`);
  const env: Record<string, string> = {};
  for (const v of vars) {
    const at = v.indexOf('=');
    if (at <= 0) throw new Error(`--run: "${v}" is not NAME=VALUE`);
    env[v.slice(0, at)] = v.slice(at + 1);
  }
  return { label: head.slice(0, eq), dir: resolve(head.slice(eq + 1)), env };
}

/** The cells of one run's report: `switchyard (policy full) chat json: CPU per call min 412.3 µs, …`. */
function minima(report: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const m of report.matchAll(/^(.+?): CPU per call min ([\d.]+) µs/gm))
    if (m[1] !== undefined && m[2] !== undefined) out.set(m[1], Number(m[2]));
  return out;
}

const runs = (values.run ?? []).map(parseRun);
if (runs.length < 2) throw new Error('give at least two --run LABEL=DIR[,NAME=VALUE…]');
const sets = Number(values.sets);
const pinned = spawnSync('taskset', ['-c', values.core, 'true']).status === 0;
if (!pinned) process.stderr.write('taskset is not available: the runs are not pinned\n');

/** cell → label → minimum of each set's run. */
const table = new Map<string, Map<string, number[]>>();
for (let set = 0; set < sets; set++) {
  const order = set % 2 === 0 ? runs : [...runs].reverse();
  for (const run of order) {
    const script = join(run.dir, 'dist', 'bench', 'gateway-bench', 'inproc.js');
    const [cmd, args] = pinned
      ? ['taskset', ['-c', values.core, process.execPath, script, ...positionals]]
      : [process.execPath, [script, ...positionals]];
    const done = spawnSync(cmd, args, {
      cwd: run.dir,
      env: { ...process.env, ...run.env },
      stdio: ['ignore', 'ignore', 'pipe'],
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
    });
    if (done.status !== 0) throw new Error(`${run.label}: inproc.js exited ${done.status}\n${done.stderr}`);
    for (const [cell, min] of minima(done.stderr)) {
      const byLabel = table.get(cell) ?? new Map<string, number[]>();
      table.set(cell, byLabel);
      byLabel.set(run.label, [...(byLabel.get(run.label) ?? []), min]);
    }
    process.stderr.write(`set ${set + 1}/${sets} ${run.label} done\n`);
  }
}

const first = runs[0]?.label ?? '';
const fmt = (xs: number[]) => xs.map((x) => x.toFixed(1)).join(', ');
for (const [cell, byLabel] of table) {
  console.log(`\n${cell}: CPU µs per call, minimum of each run${pinned ? ` (core ${values.core})` : ''}`);
  for (const { label } of runs) {
    const xs = byLabel.get(label) ?? [];
    console.log(`  ${label.padEnd(12)} median ${median(xs).toFixed(1).padStart(7)}  [${fmt(xs)}]`);
  }
  const base = byLabel.get(first) ?? [];
  for (const { label } of runs.slice(1)) {
    const ratios = (byLabel.get(label) ?? []).map((x, i) => x / (base[i] ?? Number.NaN));
    const sorted = [...ratios].sort((a, b) => a - b);
    console.log(
      `  ${label} ÷ ${first}: median of per-set ratios ${median(ratios).toFixed(3)}  [${sorted.map((r) => r.toFixed(2)).join(' ')}]`,
    );
  }
}
