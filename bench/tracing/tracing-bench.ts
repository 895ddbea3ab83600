/**
 * What OpenTelemetry tracing costs a model call. In one run, Switchyard processes (production
 * `startServer`, full policy as in the gateway benchmark, logs to a file) serve the same calls:
 *   off        no OTEL_* variable: the SDK is never loaded
 *   on         spans exported over OTLP/HTTP to a stand-in collector (a child process)
 *   unsampled  the same process as `on`, but every client sends a traceparent whose sampled flag is 0
 *   baseline   (with `--baseline DIST`) the same server script from another compiled checkout, e.g.
 *              the commit before tracing existed: `off` must cost what it did
 * Rounds of `--calls` calls at `--concurrency` rotate over the targets; each round reads the
 * target process's CPU time (/proc) and the wall time. Printed per mode and target: median and
 * minimum CPU µs per call, median calls per second, and the median CPU relative to `off`.
 *   node dist/bench/tracing/tracing-bench.js [--rounds 5] [--calls 500] [--concurrency 10] [--baseline DIR]
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { Pool } from 'undici';
import { generateToken } from '../../src/domain/keys/tokens.js';
import { spawnChild, type BenchChild } from '../gateway-bench/child.js';
import { requestBody } from '../gateway-bench/payloads.js';
import { cpuClock } from '../gateway-bench/proc.js';
import { median } from '../gateway-bench/stats.js';
import { catalog, configurePolicy } from '../gateway-bench/switchyard-target.js';

const { values } = parseArgs({
  options: {
    rounds: { type: 'string', default: '5' },
    calls: { type: 'string', default: '500' },
    concurrency: { type: 'string', default: '10' },
    modes: { type: 'string', default: 'json,stream' },
    baseline: { type: 'string' },
  },
});
const rounds = Number(values.rounds);
const calls = Number(values.calls);
const concurrency = Number(values.concurrency);
const here = dirname(fileURLToPath(import.meta.url));
const say = (msg: string) => process.stderr.write(`${msg}\n`);

/** The environment without any tracing setting of the shell that started the benchmark. */
function cleanEnv(): NodeJS.ProcessEnv {
  return Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !name.startsWith('OTEL_') && name !== 'SWITCHYARD_OTEL'),
  );
}

interface Target {
  name: string;
  child: BenchChild;
  pool: Pool;
  headers: Record<string, string>;
}

const dir = mkdtempSync(join(tmpdir(), 'switchyard-tracing-bench-'));
const children: BenchChild[] = [];
const targets: Target[] = [];

async function startGateway(
  name: string,
  script: string,
  env: NodeJS.ProcessEnv,
): Promise<{ child: BenchChild; apiKey: string }> {
  const managementToken = generateToken();
  const child = await spawnChild({
    name,
    args: [script],
    cores: null,
    logFile: join(dir, `${name}.log`),
    // A loaded machine can take a while to start a server.
    readyTimeoutMs: 120_000,
    env: {
      ...cleanEnv(),
      ...env,
      SWITCHYARD_DATABASE_URL: `sqlite:${join(dir, `${name}.db`)}`,
      SWITCHYARD_MANAGEMENT_KEY: managementToken,
      SWITCHYARD_CONFIG: join(dir, 'catalog.json'),
      SWITCHYARD_LOG_LEVEL: 'info',
      NODE_ENV: 'production',
    },
  });
  children.push(child);
  return { child, apiKey: await configurePolicy(`http://127.0.0.1:${child.port}/api/v1`, managementToken) };
}

function target(name: string, child: BenchChild, apiKey: string, extra: Record<string, string> = {}): Target {
  const pool = new Pool(`http://127.0.0.1:${child.port}`, { connections: concurrency, pipelining: 1 });
  return {
    name,
    child,
    pool,
    headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json', ...extra },
  };
}

async function batch(t: Target, payload: string, n: number): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < n) {
      next++;
      const res = await t.pool.request({
        method: 'POST',
        path: '/api/v1/chat/completions',
        headers: t.headers,
        body: payload,
      });
      const text = await res.body.text();
      if (res.statusCode !== 200) throw new Error(`${t.name}: status ${res.statusCode}: ${text.slice(0, 200)}`);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, n) }, worker));
}

try {
  const upstream = await spawnChild({
    name: 'upstream',
    args: [join(here, '..', 'gateway-bench', 'servers', 'upstream.js')],
    cores: null,
    logFile: join(dir, 'upstream.log'),
  });
  children.push(upstream);
  const sink = await spawnChild({
    name: 'otlp-sink',
    args: [join(here, 'otlp-sink.js')],
    cores: null,
    logFile: join(dir, 'sink.log'),
  });
  children.push(sink);
  writeFileSync(join(dir, 'catalog.json'), JSON.stringify(catalog(`http://127.0.0.1:${upstream.port}`)));
  const script = join(here, '..', 'gateway-bench', 'servers', 'switchyard.js');

  if (values.baseline !== undefined) {
    const base = await startGateway(
      'baseline',
      join(values.baseline, 'bench', 'gateway-bench', 'servers', 'switchyard.js'),
      {},
    );
    targets.push(target('baseline', base.child, base.apiKey));
  }
  const off = await startGateway('off', script, {});
  targets.push(target('off', off.child, off.apiKey));
  const on = await startGateway('on', script, {
    OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: `http://127.0.0.1:${sink.port}/v1/traces`,
  });
  targets.push(target('on', on.child, on.apiKey));
  const unsampled = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-00';
  targets.push(target('unsampled', on.child, on.apiKey, { traceparent: unsampled }));

  const lines = [
    '| mode | target | CPU µs/call (median) | min | calls/s (median) | CPU vs off |',
    '|---|---|---:|---:|---:|---:|',
  ];
  for (const mode of (values.modes ?? '').split(',')) {
    const payload = requestBody(mode === 'stream');
    for (const t of targets) await batch(t, payload, Math.min(calls, 1000));
    const cpu = new Map<string, number[]>(targets.map((t) => [t.name, []]));
    const rps = new Map<string, number[]>(targets.map((t) => [t.name, []]));
    for (let r = 0; r < rounds; r++) {
      for (let i = 0; i < targets.length; i++) {
        const t = targets[(i + r) % targets.length];
        if (t === undefined) continue;
        const used = cpuClock(t.child.pid);
        const started = performance.now();
        await batch(t, payload, calls);
        const seconds = (performance.now() - started) / 1000;
        cpu.get(t.name)?.push(used(calls) ?? NaN);
        rps.get(t.name)?.push(calls / seconds);
      }
      say(`${mode}: round ${r + 1}/${rounds} done`);
    }
    const offCpu = median(cpu.get('off') ?? []);
    for (const t of targets) {
      const c = cpu.get(t.name) ?? [];
      lines.push(
        `| ${mode} | ${t.name} | ${median(c).toFixed(0)} | ${Math.min(...c).toFixed(0)} | ${median(rps.get(t.name) ?? []).toFixed(0)} | ${((median(c) / offCpu - 1) * 100).toFixed(1)}% |`,
      );
    }
  }
  process.stdout.write(
    `${lines.join('\n')}\n\n(${rounds} rounds × ${calls} calls per target and mode, concurrency ${concurrency}, unpinned)\n`,
  );
} finally {
  for (const t of targets) await t.pool.close();
  for (const child of children.reverse()) await child.stop();
  rmSync(dir, { recursive: true, force: true });
}
