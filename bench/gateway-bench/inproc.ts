/**
 * CPU cost of Switchyard's own request path, for optimisation work on a busy machine: the
 * server runs in this process (real config, full policy, logs at `--log-level` to stdout, so
 * redirect it), calls come from an undici Pool in this process (its CPU is counted too, a constant
 * of a few tens of µs), the fake upstream runs in a child process. Each round times `--per-round` calls at `--concurrency` with
 * `process.cpuUsage()`; the minimum over rounds is the least disturbed figure. `--bare` measures
 * the bare proxy the same way, for the ratio; `--floor` the policy floor (floor-proxy.ts: the bare proxy
 * plus the policy's necessary work; chat calls only).
 *   node dist/bench/gateway-bench/inproc.js [--rounds 15] [--per-round 400] [--concurrency 10] > /dev/null
 * `--surfaces chat,messages,native,responses,responses-native` measures each API surface in turn (surfaces.ts;
 * the bare proxy sends the chat call in place of the translated ones).
 * Add `--cpu-prof` to node for a profile of exactly this workload; `inproc-ab.js` compares builds with it. `SWITCHYARD_*` and `OTEL_*`
 * variables of the environment reach the server's config (feature switches: the ledger journal,
 * tracing, the auth throttle, the refusal recorder), except the ones the bench sets itself.
 * `BENCH_ALLOC=survivors` samples only what outlived a scavenge (what the young generation copied
 * and promoted). `BENCH_GC=1` with `node --trace-gc-nvp` prints each mode's measured span for gc-nvp.js (GC counts,
 * pause, helper-thread time and bytes promoted per call).
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { getHeapSpaceStatistics } from 'node:v8';
import { Pool } from 'undici';
import { loadServerConfig } from '../../src/config/env.js';
import { generateToken } from '../../src/domain/keys/tokens.js';
import { startServer } from '../../src/server.js';
import { startAllocationSampling } from './alloc-profile.js';
import { createBareProxy } from './bare-proxy.js';
import { createFloorProxy } from './floor-proxy.js';
import { spawnChild } from './child.js';
import { median } from './stats.js';
import { parseSurfaces, surfaceBody, surfaceLabel, type Surface } from './surfaces.js';
import { catalog, configurePolicy, plainKey } from './switchyard-target.js';
import { BENCH_AWS_ENV } from './bedrock-payloads.js';

const { values } = parseArgs({
  options: {
    rounds: { type: 'string', default: '15' },
    'per-round': { type: 'string', default: '400' },
    concurrency: { type: 'string', default: '10' },
    'log-level': { type: 'string', default: 'info' },
    modes: { type: 'string', default: 'json,stream' },
    surfaces: { type: 'string', default: 'chat' },
    bare: { type: 'boolean', default: false },
    floor: { type: 'boolean', default: false },
    /**
     * `full` (the benchmark's guardrail and key limit), `none` (a plain key: the difference is the
     * policy's cost) or `rates` (full, and the guardrail sets request and token rate limits no call reaches).
     */
    policy: { type: 'string', default: 'full' },
  },
});
const rounds = Number(values.rounds);
const perRound = Number(values['per-round']);
const concurrency = Number(values.concurrency);
const here = dirname(fileURLToPath(import.meta.url));
const say = (msg: string) => process.stderr.write(`${msg}\n`);

/** CPU ticks (user + system) of each thread of this process, with its name (Linux /proc). */
function threadTicks(): Map<string, { name: string; ticks: number }> {
  const out = new Map<string, { name: string; ticks: number }>();
  try {
    for (const tid of readdirSync('/proc/self/task')) {
      const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
      const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      out.set(tid, { name, ticks: Number(rest[11]) + Number(rest[12]) });
    }
  } catch {
    // not Linux: no per-thread figures
  }
  return out;
}

/** The process's peak resident set so far in MB (Linux `VmHWM`), '?' elsewhere. */
function peakRssMb(): string {
  try {
    const kb = /VmHWM:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'))?.[1];
    return kb === undefined ? '?' : (Number(kb) / 1024).toFixed(1);
  } catch {
    return '?';
  }
}

const dir = mkdtempSync(join(tmpdir(), 'switchyard-inproc-'));
const upstream = await spawnChild({
  name: 'upstream',
  args: [join(here, 'servers', 'upstream.js')],
  cores: null,
  logFile: join(dir, 'upstream.log'),
});
const origin = `http://127.0.0.1:${upstream.port}`;
writeFileSync(join(dir, 'catalog.json'), JSON.stringify(catalog(origin)));
// The Bedrock provider signs with the AWS default chain, which reads this process's environment.
for (const [name, value] of Object.entries(BENCH_AWS_ENV)) process.env[name] ??= value;
const managementToken = generateToken();
/** The environment's feature switches for the server (the bench's own settings below win). */
const switches = Object.fromEntries(
  Object.entries(process.env).filter(([name]) => name.startsWith('SWITCHYARD_') || name.startsWith('OTEL_')),
);
const server = await startServer({
  config: loadServerConfig({
    ...switches,
    PORT: '0',
    HOST: '127.0.0.1',
    SWITCHYARD_DATABASE_URL: `sqlite:${join(dir, 'switchyard.db')}`,
    SWITCHYARD_MANAGEMENT_KEY: managementToken,
    SWITCHYARD_CONFIG: join(dir, 'catalog.json'),
    SWITCHYARD_LOG_LEVEL: values['log-level'] ?? 'info',
  }),
});

const bare = createBareProxy(origin);
await new Promise<void>((resolve) => bare.server.listen(0, '127.0.0.1', () => resolve()));
const floorToken = generateToken();
// Made only when measured: its compiled filter set and pool would otherwise sit in Switchyard's process.
const floor =
  values.floor === true
    ? createFloorProxy({ origin, token: floorToken, journalPath: join(dir, 'floor-journal.tsv') })
    : null;
if (floor !== null) await new Promise<void>((resolve) => floor.server.listen(0, '127.0.0.1', () => resolve()));
const portOf = (proxy: typeof bare): number => {
  const address = proxy.server.address();
  return typeof address === 'object' && address !== null ? address.port : 0;
};

try {
  const api = `${server.url}/api/v1`;
  const unreachedRates = { requests_per_minute: 1_000_000_000, tokens_per_minute: 1_000_000_000 };
  const apiKey =
    values.policy === 'none'
      ? await plainKey(api, managementToken)
      : await configurePolicy(api, managementToken, values.policy === 'rates' ? unreachedRates : {});
  const useFloor = floor !== null;
  const useBare = values.bare === true || useFloor;
  const token = useFloor ? floorToken : values.bare === true ? 'sk-bench-upstream-key-0000000001' : apiKey;
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const client = new Pool(useBare ? `http://127.0.0.1:${portOf(floor ?? bare)}` : server.url, {
    connections: concurrency,
    pipelining: 1,
  });
  /** The path and body of a surface's call; the bare proxy forwards what needs no translation, else the chat call. */
  const route = (surface: Surface, stream: boolean): { path: string; payload: string } => {
    if (useBare) {
      const sends: Surface = surface === 'native' && !useFloor ? 'native' : 'chat';
      return {
        path: sends === 'native' ? '/v1/messages' : '/v1/chat/completions',
        payload: surfaceBody(sends, stream),
      };
    }
    const path = {
      chat: '/chat/completions',
      messages: '/messages',
      native: '/messages',
      responses: '/responses',
      azure: '/chat/completions',
      bedrock: '/chat/completions',
      gemini: '/chat/completions',
      'responses-native': '/responses',
    }[surface];
    return { path: `/api/v1${path}`, payload: surfaceBody(surface, stream) };
  };
  /** Each call's wall time in ms while BENCH_GC=1 (how long a call's objects stay alive). */
  const latencies: number[] | null = process.env.BENCH_GC === '1' ? [] : null;
  const one = async (path: string, payload: string): Promise<void> => {
    const started = latencies === null ? 0 : performance.now();
    const res = await client.request({ method: 'POST', path, headers, body: payload });
    const text = await res.body.text();
    if (res.statusCode !== 200) throw new Error(`status ${res.statusCode}: ${text.slice(0, 200)}`);
    latencies?.push(performance.now() - started);
  };
  const batch = async (path: string, payload: string, n: number): Promise<void> => {
    let next = 0;
    const worker = async () => {
      while (next < n) {
        next++;
        await one(path, payload);
      }
    };
    await Promise.all(Array.from({ length: Math.min(concurrency, n) }, worker));
  };
  const runs = parseSurfaces(values.surfaces ?? '').flatMap((surface) =>
    (values.modes ?? '').split(',').map((mode) => ({ surface, mode })),
  );
  for (const { surface, mode } of runs) {
    const { path, payload } = route(surface, mode === 'stream');
    await batch(path, payload, perRound * 3);
    const costs: number[] = [];
    const threadsBefore = threadTicks();
    const alloc = process.env.BENCH_ALLOC;
    const stopSampling =
      alloc === '1' || alloc === 'survivors'
        ? await startAllocationSampling({ survivors: alloc === 'survivors' })
        : null;
    const windowFrom = performance.now();
    latencies?.splice(0);
    for (let r = 0; r < rounds; r++) {
      const before = process.cpuUsage();
      await batch(path, payload, perRound);
      const used = process.cpuUsage(before);
      costs.push((used.user + used.system) / perRound);
    }
    // The measured rounds' span, for gc-nvp.js to sum the `--trace-gc-nvp` lines inside it.
    if (latencies !== null) {
      latencies.sort((a, b) => a - b);
      const at = (q: number) =>
        (latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0).toFixed(1);
      say(`call wall time ms: p50 ${at(0.5)} p90 ${at(0.9)} p99 ${at(0.99)} max ${at(1)}`);
      say(
        `gc-window ${surface}-${mode}-c${concurrency} from=${windowFrom.toFixed(0)} to=${performance.now().toFixed(0)} calls=${rounds * perRound}`,
      );
    }
    if (stopSampling !== null) {
      const sites = [...(await stopSampling()).entries()].sort((a, b) => b[1] - a[1]);
      const calls = rounds * perRound;
      const total = sites.reduce((n, [, bytes]) => n + bytes, 0);
      const what = alloc === 'survivors' ? 'outlived a scavenge' : 'allocated';
      say(`${what} ~${(total / calls / 1024).toFixed(1)} KB per call (sampled); top sites, bytes per call:`);
      for (const [site, bytes] of sites.slice(0, 40)) say(`  ${(bytes / calls).toFixed(0).padStart(7)}  ${site}`);
    }
    if (process.env.BENCH_THREADS === '1') {
      const after = threadTicks();
      const byName = new Map<string, number>();
      for (const [tid, t] of after)
        byName.set(
          tid === String(process.pid) ? 'main' : t.name,
          (byName.get(t.name) ?? 0) + t.ticks - (threadsBefore.get(tid)?.ticks ?? 0),
        );
      say(`threads (CPU ticks, all rounds): ${[...byName].map(([n, v]) => `${n}=${v}`).join(' ')}`);
    }
    if (process.env.BENCH_HEAP === '1') {
      if (typeof globalThis.gc === 'function') globalThis.gc();
      const mu = process.memoryUsage();
      say(
        `peak rss so far ${peakRssMb()} rss ${(mu.rss / 1048576).toFixed(1)} heapTotal ${(mu.heapTotal / 1048576).toFixed(1)} heapUsed ${(mu.heapUsed / 1048576).toFixed(1)} external ${(mu.external / 1048576).toFixed(1)} arrayBuffers ${(mu.arrayBuffers / 1048576).toFixed(1)}`,
      );
      for (const sp of getHeapSpaceStatistics())
        say(
          `  ${sp.space_name} size ${(sp.space_size / 1048576).toFixed(1)} used ${(sp.space_used_size / 1048576).toFixed(1)}`,
        );
    }
    say(
      `${useFloor ? 'floor' : useBare ? 'bare' : `switchyard (policy ${values.policy ?? 'full'})`} ${surfaceLabel(surface)} ${mode}: CPU per call min ${Math.min(...costs).toFixed(1)} µs, median ${median(costs).toFixed(1)} µs (${rounds} rounds × ${perRound} calls, concurrency ${concurrency})`,
    );
  }
  await client.close();
} finally {
  await bare.close();
  await floor?.close();
  await server.close();
  await upstream.stop();
  rmSync(dir, { recursive: true, force: true });
}
