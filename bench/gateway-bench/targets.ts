import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { spawnChild, type BenchChild } from './child.js';
import type { Endpoint } from './load.js';
import { portkeyHeaders, startPortkey } from './portkey.js';
import { requestBody } from './payloads.js';
import { startSwitchyard } from './switchyard-target.js';

export type TargetName = 'direct' | 'bare' | 'switchyard' | 'portkey';
export const ALL_TARGETS: readonly TargetName[] = ['direct', 'bare', 'switchyard', 'portkey'];

export interface Target {
  name: TargetName;
  endpoint: Endpoint;
  /** The process whose CPU and memory are reported (direct: the upstream itself). */
  pid: number;
}

export interface Pinning {
  /** Cores of gateways under test, and of the upstream (+ this process, the load generator). */
  gateway: string | null;
  upstream: string | null;
}

export interface Fleet {
  targets: Target[];
  upstreamOrigin: string;
  stop(): Promise<void>;
}

const here = dirname(fileURLToPath(import.meta.url));
const UPSTREAM_AUTH = { authorization: 'Bearer sk-bench-upstream-key-0000000001' };

/** Starts the fake upstream and the requested gateways (each an idle child until measured). */
export interface FleetOptions {
  names: readonly TargetName[];
  pin: Pinning;
  portkeyDir: string;
  switchyardLogLevel: string;
  /** Node flags for the Switchyard process (profiling). */
  switchyardNodeArgs?: string[];
}

export async function startFleet(options: FleetOptions): Promise<Fleet> {
  const dir = mkdtempSync(join(tmpdir(), 'switchyard-bench-'));
  const children: BenchChild[] = [];
  const stop = async () => {
    await Promise.all(children.map((c) => c.stop()));
    // BENCH_KEEP_DIR=1 keeps the processes' logs (e.g. with --node-args=--trace-gc) for a look afterwards.
    if (process.env.BENCH_KEEP_DIR === '1') process.stderr.write(`bench: logs kept in ${dir}\n`);
    else rmSync(dir, { recursive: true, force: true });
  };
  try {
    const upstream = await spawnChild({
      name: 'upstream',
      args: [join(here, 'servers', 'upstream.js')],
      cores: options.pin.upstream,
      logFile: join(dir, 'upstream.log'),
    });
    children.push(upstream);
    const origin = `http://127.0.0.1:${upstream.port}`;
    const targets: Target[] = [];
    for (const name of options.names) {
      if (name === 'direct') {
        targets.push({
          name,
          endpoint: { url: `${origin}/v1/chat/completions`, headers: UPSTREAM_AUTH },
          pid: upstream.pid,
        });
      } else if (name === 'bare') {
        const bare = await spawnChild({
          name,
          args: [join(here, 'servers', 'bare-proxy.js'), origin],
          cores: options.pin.gateway,
          logFile: join(dir, 'bare.log'),
        });
        children.push(bare);
        targets.push({
          name,
          endpoint: { url: `http://127.0.0.1:${bare.port}/v1/chat/completions`, headers: UPSTREAM_AUTH },
          pid: bare.pid,
        });
      } else if (name === 'switchyard') {
        const sy = await startSwitchyard({
          dir,
          upstreamOrigin: origin,
          cores: options.pin.gateway,
          script: join(here, 'servers', 'switchyard.js'),
          logLevel: options.switchyardLogLevel,
          nodeArgs: options.switchyardNodeArgs,
        });
        children.push(sy.child);
        targets.push({
          name,
          endpoint: {
            url: `http://127.0.0.1:${sy.child.port}/api/v1/chat/completions`,
            headers: { authorization: `Bearer ${sy.apiKey}` },
          },
          pid: sy.child.pid,
        });
      } else {
        const pk = await startPortkey({
          dir: options.portkeyDir,
          logDir: dir,
          cores: options.pin.gateway,
          warmupMs: 3000,
        });
        children.push(pk);
        targets.push({
          name,
          endpoint: { url: `http://127.0.0.1:${pk.port}/v1/chat/completions`, headers: portkeyHeaders(origin) },
          pid: pk.pid,
        });
      }
    }
    for (const t of targets) await checkTarget(t);
    return { targets, upstreamOrigin: origin, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** One JSON and one streamed call must succeed and carry the answer before anything is timed. */
async function checkTarget(target: Target): Promise<void> {
  for (const stream of [false, true]) {
    const res = await fetch(target.endpoint.url, {
      method: 'POST',
      headers: { ...target.endpoint.headers, 'content-type': 'application/json' },
      body: requestBody(stream),
    });
    const text = await res.text();
    const ok = res.status === 200 && text.includes('canaries') && (!stream || text.includes('[DONE]'));
    if (!ok)
      throw new Error(`${target.name} ${stream ? 'stream' : 'JSON'} check failed: ${res.status} ${text.slice(0, 300)}`);
  }
}
