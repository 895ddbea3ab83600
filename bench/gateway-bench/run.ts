/**
 * Gateway benchmark (issue #8): direct upstream vs a bare node:http + undici proxy vs the policy
 * floor (the bare proxy plus the policy's necessary work, floor-proxy.ts) vs Switchyard with a
 * full policy vs the Portkey gateway, in one run, interleaved.
 *   npx tsc -p tsconfig.json && node dist/bench/gateway-bench/run.js [--quick] [--reps 3]
 *   … --soak 10        10-minute soak of Switchyard (RSS slope)
 *   … --streams 512    512 concurrent paced streams (stalls and their episodes, the core's busy share)
 *   … --cpu-prof DIR   Switchyard runs with --cpu-prof, the floor and the bare proxy too (into
 *       DIR/floor and DIR/bare); summarise with profile-summary.js
 *   … --node-args "--max-semi-space-size=8"   extra node flags for the Switchyard process
 *   … --cells json10,stream10,messages-json10,native-stream10,responses-json10   cells: chat by
 *       default; `messages-` (Anthropic Messages translated to the OpenAI-format upstream),
 *       `native-` (Messages passed through to the Anthropic-format upstream), `responses-`,
 *       `bedrock-` (chat to a kind: bedrock provider: SigV4, Converse and its event stream)
 * See docs/performance.md for how to read the table.
 */
import { execFileSync } from 'node:child_process';
import { availableParallelism, loadavg } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { runCell } from './load.js';
import { PORTKEY_VERSION } from './portkey.js';
import { probe } from './probe.js';
import { peakRssBytes, pinProcess } from './proc.js';
import { renderReport, type Cell, type CellRun, type ProbeRun } from './report.js';
import { writeResult } from './results.js';
import { runSoak } from './soak.js';
import { runStreams } from './streams.js';
import { parseCells, surfaceBody, surfaceLabel, type Surface } from './surfaces.js';
import { ALL_TARGETS, callFor, startFleet, type Pinning, type TargetName } from './targets.js';

const here = dirname(fileURLToPath(import.meta.url));
/** Read before this process pins itself (afterwards it reports only its own cores). */
const CORES = availableParallelism();
const repoRoot = resolve(here, '..', '..', '..');

const { values } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    reps: { type: 'string' },
    seconds: { type: 'string' },
    warmup: { type: 'string' },
    probes: { type: 'string' },
    targets: { type: 'string', default: ALL_TARGETS.join(',') },
    'no-pin': { type: 'boolean', default: false },
    'log-level': { type: 'string', default: 'info' },
    soak: { type: 'string' },
    streams: { type: 'string' },
    'cpu-prof': { type: 'string' },
    cells: { type: 'string', default: 'json10,json64,stream10,stream64' },
    'node-args': { type: 'string', default: '' },
    out: { type: 'string', default: join(repoRoot, 'bench', 'results') },
  },
});

const quick = values.quick === true;
const num = (raw: string | undefined, fallback: number): number => (raw === undefined ? fallback : Number(raw));
const reps = num(values.reps, quick ? 1 : 3);
const seconds = num(values.seconds, quick ? 2 : 10);
const warmupS = num(values.warmup, quick ? 0.5 : 2);
const probes = num(values.probes, quick ? 100 : 1000);
const names = (values.targets ?? '')
  .split(',')
  .filter((t): t is TargetName => (ALL_TARGETS as readonly string[]).includes(t));
const log = (msg: string) => process.stderr.write(`[bench] ${msg}\n`);

function pinning(): Pinning {
  if (values['no-pin'] === true || CORES < 2) return { gateway: null, upstream: null };
  const last = String(CORES - 1);
  // The load generator (this process) shares the upstream's core; the gateway has core 0 alone.
  return pinProcess(process.pid, `1-${last}`)
    ? { gateway: '0', upstream: `1-${last}` }
    : { gateway: null, upstream: null };
}

function commit(): string {
  try {
    const sha = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: repoRoot, encoding: 'utf8' }).trim();
    const dirty =
      execFileSync('git', ['status', '--porcelain', '--', 'src'], { cwd: repoRoot, encoding: 'utf8' }).trim() !== '';
    return dirty ? `${sha} (+ uncommitted changes in src/)` : sha;
  } catch {
    return 'unknown';
  }
}

async function main(): Promise<void> {
  const pin = pinning();
  const portkeyDir = join(repoRoot, 'bench', '.portkey');
  const profDir = values['cpu-prof'];
  const switchyardNodeArgs = [
    ...(values['node-args'] ?? '').split(' ').filter((a) => a !== ''),
    ...(profDir === undefined ? [] : ['--cpu-prof', `--cpu-prof-dir=${resolve(profDir)}`]),
  ];
  const profiled = (sub: string) =>
    profDir === undefined ? [] : ['--cpu-prof', `--cpu-prof-dir=${resolve(profDir, sub)}`];
  const floorNodeArgs = profiled('floor');
  const bareNodeArgs = profiled('bare');
  /** The Switchyard build measured, as every report names it: its commit and any extra node flags. */
  const build = `${commit()}${values['node-args'] ? ` (node ${values['node-args']})` : ''}`;
  if (values.soak !== undefined || values.streams !== undefined) {
    const fleet = await startFleet({
      names: ['bare', 'switchyard'],
      pin,
      portkeyDir,
      switchyardLogLevel: values['log-level'] ?? 'info',
      switchyardNodeArgs,
      bareNodeArgs,
    });
    try {
      const md =
        values.soak !== undefined
          ? await runSoak(fleet, { minutes: Number(values.soak), build, log })
          : await runStreams(fleet, { streams: Number(values.streams), build, log });
      process.stdout.write(md);
      log(`written ${writeResult(values.out ?? '.', values.soak !== undefined ? 'soak' : 'streams', md)}`);
    } finally {
      await fleet.stop();
    }
    return;
  }
  const fleet = await startFleet({
    names,
    pin,
    portkeyDir,
    switchyardLogLevel: values['log-level'] ?? 'info',
    switchyardNodeArgs,
    floorNodeArgs,
    bareNodeArgs,
  });
  const cellRuns: CellRun[] = [];
  const probeRuns: ProbeRun[] = [];
  const cells: Cell[] = parseCells(values.cells ?? '');
  // Other work on the machine shifts absolute figures; the report states how busy it was.
  const loadBefore = loadavg();
  const surfaces: Surface[] = [...new Set(cells.map((c) => c.surface))];
  try {
    for (let rep = 0; rep < reps; rep++) {
      // Rotate the order per repetition so drift does not always favour the same target.
      const order = fleet.targets
        .map((_, i) => fleet.targets[(i + rep) % fleet.targets.length])
        .filter((t) => t !== undefined);
      for (const cell of cells) {
        for (const target of order) {
          const call = callFor(target, cell.surface);
          if (call === undefined) continue;
          const result = await runCell({
            endpoint: call.endpoint,
            body: surfaceBody(call.sends, cell.stream),
            connections: cell.connections,
            warmupS,
            seconds,
            pid: target.pid,
          });
          cellRuns.push({ rep, cell, target: target.name, result });
          log(
            `rep ${rep + 1}/${reps} ${surfaceLabel(cell.surface)} ${cell.stream ? 'stream' : 'json'} c=${cell.connections} ${target.name}: ${Math.round(result.rps)} rps, p50 ${result.p50Ms.toFixed(3)} ms, CPU ${Math.round(result.cpuUsPerRequest ?? Number.NaN)} µs/req`,
          );
        }
      }
      for (const surface of probes > 0 ? surfaces : [])
        for (const target of order) {
          const call = callFor(target, surface);
          if (call === undefined) continue;
          const result = await probe({
            endpoint: call.endpoint,
            jsonBody: surfaceBody(call.sends, false),
            streamBody: surfaceBody(call.sends, true),
            count: probes,
            pid: target.pid,
          });
          probeRuns.push({ rep, target: target.name, surface, result });
          log(
            `rep ${rep + 1}/${reps} probe ${surfaceLabel(surface)} ${target.name}: JSON p50 ${result.jsonP50Ms.toFixed(3)} ms, first chunk p50 ${result.firstChunkP50Ms.toFixed(3)} ms, CPU ${Math.round(result.cpuUsPerPair)} µs per JSON + stream pair`,
          );
        }
    }
    for (const t of fleet.targets) {
      const served = cellRuns.filter((c) => c.target === t.name).reduce((n, c) => n + c.result.requests, 0);
      log(`${t.name}: ${served} requests measured (warm-ups and probes excluded)`);
    }
    const peakRssMb: Partial<Record<TargetName, number>> = {};
    for (const t of fleet.targets) peakRssMb[t.name] = (peakRssBytes(t.pid) ?? Number.NaN) / 1024 / 1024;
    const md = renderReport({
      title: `Gateway benchmark ${new Date().toISOString()}${quick ? ' (quick: smoke test only)' : ''}`,
      setup: [
        `Node ${process.version}, ${CORES} cores; ${pin.gateway === null ? 'no pinning' : `gateway pinned to core ${pin.gateway}, upstream + load generator to ${pin.upstream}`}`,
        `${reps} repetition(s), targets interleaved (order rotated per repetition); per cell ${warmupS} s warm-up + ${seconds} s measured; probe ${probes} sequential calls per kind`,
        `Switchyard ${build}: API key with limit, guardrail (allowed models/providers, limit_usd, 8 builtin filters, 10 custom patterns), metering, log level ${values['log-level'] ?? 'info'}; Portkey @portkey-ai/gateway ${PORTKEY_VERSION}`,
        'Request ~0.9 KB chat body (messages, responses: the same conversation in their format); answer ~1.5 KB JSON or 20 SSE data events + [DONE] (Anthropic format: the same text, 23 events); upstream has no artificial delay',
        `Load average (1/5/15 min) at start ${loadBefore.map((l) => l.toFixed(2)).join(' / ')}, at end ${loadavg()
          .map((l) => l.toFixed(2))
          .join(' / ')}`,
      ],
      targets: fleet.targets.map((t) => t.name),
      cells,
      cellRuns,
      probeRuns,
      peakRssMb,
    });
    process.stdout.write(md);
    log(`written ${writeResult(values.out ?? '.', quick ? 'gateway-quick' : 'gateway', md)}`);
  } finally {
    await fleet.stop();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`[bench] failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exitCode = 1;
});
