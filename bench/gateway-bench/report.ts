import type { CellResult } from './load.js';
import type { ProbeResult } from './probe.js';
import { f, int, signed } from './report-format.js';
import { median } from './stats.js';
import { probeMedian, surfacesAgainstChat } from './report-surfaces.js';
import { surfaceLabel, type Cell, type Surface } from './surfaces.js';
import type { TargetName } from './targets.js';

export type { Cell } from './surfaces.js';

export interface CellRun {
  rep: number;
  cell: Cell;
  target: TargetName;
  result: CellResult;
}

export interface ProbeRun {
  rep: number;
  target: TargetName;
  surface: Surface;
  result: ProbeResult;
}

export interface RunReport {
  title: string;
  setup: string[];
  targets: TargetName[];
  cells: Cell[];
  cellRuns: CellRun[];
  probeRuns: ProbeRun[];
  peakRssMb: Partial<Record<TargetName, number>>;
}

const cellName = (c: Cell): string =>
  `${c.surface === 'chat' ? '' : `${surfaceLabel(c.surface)} `}${c.stream ? 'stream' : 'JSON'} c=${c.connections}`;
const same = (a: Cell, b: Cell): boolean =>
  a.surface === b.surface && a.stream === b.stream && a.connections === b.connections;

/** Median over repetitions of target/bare ratio, each taken within one repetition. */
function ratio(runs: readonly CellRun[], cell: Cell, target: TargetName): number {
  const per: number[] = [];
  for (const run of runs) {
    if (run.target !== target || !same(run.cell, cell)) continue;
    const bare = runs.find((r) => r.rep === run.rep && r.target === 'bare' && same(r.cell, cell));
    if (bare !== undefined && bare.result.rps > 0) per.push(run.result.rps / bare.result.rps);
  }
  return median(per);
}

/** Median over repetitions of a CPU-per-request ratio between two targets, each taken within one repetition. */
function cpuRatio(runs: readonly CellRun[], cell: Cell, over: TargetName, under: TargetName): number {
  const per: number[] = [];
  for (const run of runs) {
    if (run.target !== over || !same(run.cell, cell)) continue;
    const base = runs.find((x) => x.rep === run.rep && x.target === under && same(x.cell, cell));
    const a = run.result.cpuUsPerRequest;
    const b = base?.result.cpuUsPerRequest;
    if (a !== null && b !== null && b !== undefined && b > 0) per.push(a / b);
  }
  return median(per);
}

/**
 * CPU per request of bare, floor and switchyard side by side: floor / bare is what the policy's
 * own work costs on Node, switchyard / floor what the gateway costs above that (its overhead).
 */
function floorTable(r: RunReport): string[] {
  const three: TargetName[] = ['bare', 'floor', 'switchyard'];
  if (!three.every((t) => r.targets.includes(t))) return [];
  const lines = [
    '| cell | bare CPU µs/req | floor CPU µs/req | switchyard CPU µs/req | floor / bare | switchyard / floor | switchyard / bare |',
    '|---|---:|---:|---:|---:|---:|---:|',
  ];
  for (const cell of r.cells) {
    const cpu = (t: TargetName) =>
      median(
        r.cellRuns
          .filter((x) => x.target === t && same(x.cell, cell))
          .map((x) => x.result.cpuUsPerRequest ?? Number.NaN),
      );
    const ratios = [
      cpuRatio(r.cellRuns, cell, 'floor', 'bare'),
      cpuRatio(r.cellRuns, cell, 'switchyard', 'floor'),
      cpuRatio(r.cellRuns, cell, 'switchyard', 'bare'),
    ];
    lines.push(
      `| ${cellName(cell)} | ${three.map((t) => int(cpu(t))).join(' | ')} | ${ratios.map((x) => f(x, 2)).join(' | ')} |`,
    );
  }
  const probe = (t: TargetName, pick: (p: ProbeResult) => number) => probeMedian(r, t, pick);
  if (r.probeRuns.some((p) => p.target === 'floor' && p.surface === 'chat')) {
    const pair = three.map((t) => probe(t, (p) => p.cpuUsPerPair));
    lines.push(
      `| probe c=1, JSON + stream pair | ${pair.map(int).join(' | ')} | ${f((pair[1] ?? NaN) / (pair[0] ?? NaN), 2)} | ${f((pair[2] ?? NaN) / (pair[1] ?? NaN), 2)} | ${f((pair[2] ?? NaN) / (pair[0] ?? NaN), 2)} |`,
    );
  }
  return lines;
}

function loadTable(r: RunReport): string[] {
  const lines = [
    '| cell | target | RPS | × bare | p50 ms | p99 ms | CPU µs/req | errors |',
    '|---|---|---:|---:|---:|---:|---:|---:|',
  ];
  for (const cell of r.cells) {
    for (const target of r.targets) {
      const runs = r.cellRuns.filter((x) => x.target === target && same(x.cell, cell)).map((x) => x.result);
      if (runs.length === 0) continue;
      const m = (pick: (c: CellResult) => number | null) => median(runs.map((c) => pick(c) ?? Number.NaN));
      const errors = runs.reduce((s, c) => s + c.errors + c.non2xx, 0);
      lines.push(
        `| ${cellName(cell)} | ${target} | ${int(m((c) => c.rps))} | ${f(ratio(r.cellRuns, cell, target), 2)} | ${f(
          m((c) => c.p50Ms),
          3,
        )} | ${f(
          m((c) => c.p99Ms),
          3,
        )} | ${int(m((c) => c.cpuUsPerRequest))} | ${errors} |`,
      );
    }
  }
  return lines;
}

function probeTable(r: RunReport): string[] {
  const lines = [
    '| target | surface | JSON p50 ms | Δ bare | JSON p99 ms | stream headers p50 ms | first chunk p50 ms | Δ bare | first chunk p99 ms | whole stream p50 ms | CPU µs per JSON + stream |',
    '|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
  ];
  const surfaces = [...new Set(r.probeRuns.map((p) => p.surface))];
  for (const surface of surfaces)
    for (const target of r.targets) {
      if (r.probeRuns.every((p) => p.target !== target || p.surface !== surface)) continue;
      const m = (pick: (p: ProbeResult) => number) => probeMedian(r, target, pick, surface);
      const bareJson = probeMedian(r, 'bare', (p) => p.jsonP50Ms, surface);
      const bareFirst = probeMedian(r, 'bare', (p) => p.firstChunkP50Ms, surface);
      lines.push(probeRow(target, surface, m, bareJson, bareFirst));
    }
  return lines;
}

function probeRow(
  target: TargetName,
  surface: Surface,
  m: (pick: (p: ProbeResult) => number) => number,
  bareJson: number,
  bareFirst: number,
): string {
  return `| ${target} | ${surfaceLabel(surface)} | ${f(
    m((p) => p.jsonP50Ms),
    3,
  )} | ${signed(m((p) => p.jsonP50Ms) - bareJson, 3)} | ${f(
    m((p) => p.jsonP99Ms),
    3,
  )} | ${f(
    m((p) => p.headersP50Ms),
    3,
  )} | ${f(
    m((p) => p.firstChunkP50Ms),
    3,
  )} | ${signed(m((p) => p.firstChunkP50Ms) - bareFirst, 3)} | ${f(
    m((p) => p.firstChunkP99Ms),
    3,
  )} | ${f(
    m((p) => p.streamP50Ms),
    3,
  )} | ${int(m((p) => p.cpuUsPerPair))} |`;
}

/** Issue #8's goals for Switchyard (full policy on) against the bare proxy of the same run. */
function goals(r: RunReport): string[] {
  if (!r.targets.includes('switchyard') || !r.targets.includes('bare')) return [];
  const lines = ['| goal | measured | met |', '|---|---:|---|'];
  for (const cell of r.cells.filter((c) => c.surface === 'chat')) {
    const x = ratio(r.cellRuns, cell, 'switchyard');
    lines.push(`| throughput ${cellName(cell)} ≥ 0.70 × bare | ${f(x, 2)} | ${x >= 0.7 ? 'yes' : 'no'} |`);
  }
  const added = probeMedian(r, 'switchyard', (p) => p.jsonP50Ms) - probeMedian(r, 'bare', (p) => p.jsonP50Ms);
  lines.push(`| added latency at c=1 (JSON p50) ≤ 0.3 ms | ${f(added, 3)} ms | ${added <= 0.3 ? 'yes' : 'no'} |`);
  const first =
    probeMedian(r, 'switchyard', (p) => p.firstChunkP50Ms) - probeMedian(r, 'bare', (p) => p.firstChunkP50Ms);
  lines.push(
    `| time to first streamed chunk (p50) ≤ bare + 0.5 ms | ${f(first, 3)} ms | ${first <= 0.5 ? 'yes' : 'no'} |`,
  );
  const rss = r.peakRssMb.switchyard ?? Number.NaN;
  lines.push(`| peak RSS under load ≤ 150 MB | ${f(rss, 1)} MB | ${rss <= 150 ? 'yes' : 'no'} |`);
  return lines;
}

export function renderReport(r: RunReport): string {
  const rss = [
    '| target | peak RSS MB |',
    '|---|---:|',
    ...r.targets.filter((t) => t !== 'direct').map((t) => `| ${t} | ${f(r.peakRssMb[t] ?? Number.NaN, 1)} |`),
  ];
  const goalLines = goals(r);
  const floorLines = floorTable(r);
  const surfaceLines = surfacesAgainstChat(r);
  return [
    `# ${r.title}`,
    '',
    ...r.setup.map((s) => `- ${s}`),
    '',
    '## Under load (autocannon; medians over repetitions; × bare = median of per-repetition ratios)',
    '',
    ...loadTable(r),
    ...(r.cells.some((c) => c.surface === 'messages' || c.surface === 'responses')
      ? [
          '',
          'The proxies (direct, bare) cannot translate: in the translated messages and responses cells they make the chat call the translation sends upstream, next to the gateway in the same cell; in native messages cells they forward the same Messages call.',
        ]
      : []),
    '',
    '## Sequential probe (c=1, hrtime; Δ bare = difference of medians)',
    '',
    ...probeTable(r),
    ...(surfaceLines.length > 0
      ? [
          '',
          "Each surface against chat at c=1: Switchyard's own p50, and its Δ over the bare proxy's chat call pooled over every cell where the bare proxy makes it (the chat and translated cells; a native cell's own forwarded call).",
          '',
          ...surfaceLines,
        ]
      : []),
    '',
    '## Memory (VmHWM of each gateway process over the whole run)',
    '',
    ...rss,
    ...(floorLines.length > 0
      ? [
          '',
          '## The policy floor (CPU per request; ratios: medians of per-repetition ratios, probe: of medians)',
          '',
          ...floorLines,
          '',
          'floor = the bare proxy plus the work the policy makes necessary for any design (bench/gateway-bench/floor-policy.ts): floor / bare is that work on Node, switchyard / floor the gateway above it; the added c=1 latency of each is its Δ bare in the probe table.',
        ]
      : []),
    ...(goalLines.length > 0 ? ['', '## Goals (Switchyard, full policy)', '', ...goalLines] : []),
    '',
  ].join('\n');
}
