/**
 * Builds (or settings) compared with the in-process bench, alternated. Each `--run LABEL=DIR`
 * (optionally `,NAME=VALUE…` for environment variables of that run and `,--flag` for arguments of
 * its own) runs `DIR/dist/bench/gateway-bench/inproc.js` with the arguments after `--`, in turn,
 * for `--sets` sets whose order rotates by one run every set. Each run is pinned to one core with
 * `taskset` (`--core`, default 1), as the peer benchmark pins its gateway: on a machine shared
 * with other work an unpinned run spreads over both cores and its minimum moves by a third between
 * runs of one build. Prints, per cell (surface and mode), each run's minimum CPU per call, their
 * median per label, and for every label after the first the median of its per-set ratios to the
 * first (one set's runs are seconds apart, so they share the machine's state).
 *   node dist/bench/gateway-bench/inproc-ab.js --run base=/work/wt/base --run head=. --sets 8 -- --modes json --rounds 5 --per-round 300
 *   node dist/bench/gateway-bench/inproc-ab.js --run on=. --run off=.,SWITCHYARD_LEDGER_JOURNAL_DIR=off -- --modes json
 *   node dist/bench/gateway-bench/inproc-ab.js --run full=. --run none=.,--policy=none --run floor=.,--floor -- --modes json
 */
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { nodeCommand } from './child.js';
import { pinProcess } from './proc.js';
import { median } from './stats.js';

interface Run {
  label: string;
  dir: string;
  env: Record<string, string>;
  /** Arguments of this run, before the common ones. */
  args: string[];
}

const { values, positionals } = parseArgs({
  options: {
    run: { type: 'string', multiple: true, default: [] },
    sets: { type: 'string', default: '6' },
    core: { type: 'string', default: '1' },
    /** The bench's fake upstream (its child process) moves here, off the measured core. */
    'upstream-core': { type: 'string', default: '0' },
  },
  allowPositionals: true,
});

/** `LABEL=DIR[,NAME=VALUE…][,--flag…]`. */
function parseRun(spec: string): Run {
  const [head = '', ...rest] = spec.split(',');
  const eq = head.indexOf('=');
  if (eq <= 0) throw new Error(`--run wants LABEL=DIR[,NAME=VALUE…][,--flag…], got "${spec}"`);
  const env: Record<string, string> = {};
  const args: string[] = [];
  for (const item of rest) {
    if (item.startsWith('--')) {
      args.push(item);
      continue;
    }
    const at = item.indexOf('=');
    if (at <= 0) throw new Error(`--run: "${item}" is neither NAME=VALUE nor --flag`);
    env[item.slice(0, at)] = item.slice(at + 1);
  }
  return { label: head.slice(0, eq), dir: resolve(head.slice(eq + 1)), env, args };
}

/**
 * The cells (surface and mode) of one run's report, whichever target it measured:
 * `switchyard (policy full) chat json: CPU per call min 412.3 µs, …`, `floor chat json: …`.
 */
function minima(report: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const m of report.matchAll(/^(?:bare|floor|switchyard \(policy \w+\)) (.+?): CPU per call min ([\d.]+) µs/gm))
    if (m[1] !== undefined && m[2] !== undefined) out.set(m[1], Number(m[2]));
  return out;
}

const runs = (values.run ?? []).map(parseRun);
if (runs.length < 2) throw new Error('give at least two --run LABEL=DIR[,NAME=VALUE…][,--flag…]');
const sets = Number(values.sets);
const pinned = spawnSync('taskset', ['-c', values.core, 'true']).status === 0;
if (!pinned) process.stderr.write('taskset is not available: the runs are not pinned\n');

/**
 * Moves the run's child processes (the fake upstream) to `--upstream-core` as they appear: a
 * child inherits the run's core, and sharing it would put the upstream's turns between the
 * measured process's and flush its caches, which the peer benchmark's pinned gateway never sees.
 */
function pinChildren(pid: number, done: Set<number>): void {
  let children: string;
  try {
    children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8');
  } catch {
    return;
  }
  for (const child of children
    .split(' ')
    .filter((c) => c !== '')
    .map(Number)) {
    if (done.has(child)) continue;
    done.add(child);
    pinProcess(child, values['upstream-core']);
  }
}

/** One run of inproc.js: its exit status and its report (stderr). */
function inproc(cmd: string, args: string[], run: Run): Promise<{ status: number | null; stderr: string }> {
  return new Promise((resolveRun, reject) => {
    const child = spawn(cmd, args, {
      cwd: run.dir,
      env: { ...process.env, ...run.env },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (text: string) => (stderr += text));
    const moved = new Set<number>();
    const mover =
      pinned && values['upstream-core'] !== values.core && child.pid !== undefined
        ? setInterval(() => pinChildren(child.pid as number, moved), 50)
        : null;
    child.once('error', reject);
    child.once('close', (status) => {
      if (mover !== null) clearInterval(mover);
      resolveRun({ status, stderr });
    });
  });
}

/** cell → label → minimum of each set's run. */
const table = new Map<string, Map<string, number[]>>();
for (let set = 0; set < sets; set++) {
  // Each set starts one run later, so that no run keeps a position (the first after the previous
  // set's last run, the last before the next set's first).
  const order = [...runs.slice(set % runs.length), ...runs.slice(0, set % runs.length)];
  for (const run of order) {
    const script = join(run.dir, 'dist', 'bench', 'gateway-bench', 'inproc.js');
    const { file, argv } = nodeCommand(pinned ? values.core : null, [script, ...run.args, ...positionals]);
    const done = await inproc(file, argv, run);
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
