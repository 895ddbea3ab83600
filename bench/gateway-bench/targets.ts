import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { spawnChild, type BenchChild } from './child.js';
import type { Endpoint } from './load.js';
import { checkRedaction, startFloor } from './floor-target.js';
import { portkeyHeaders, startPortkey } from './portkey.js';
import { startSwitchyard } from './switchyard-target.js';
import { streamEndMarker, SURFACES, surfaceBody, type Surface } from './surfaces.js';

export type TargetName = 'direct' | 'bare' | 'floor' | 'switchyard' | 'portkey';
export const ALL_TARGETS: readonly TargetName[] = ['direct', 'bare', 'floor', 'switchyard', 'portkey'];

export interface Target {
  name: TargetName;
  /** The chat endpoint (every target has one). */
  endpoint: Endpoint;
  /** How the target is called in cells of the other surfaces (none: it sits those cells out). */
  surfaces: Partial<Record<Exclude<Surface, 'chat'>, SurfaceCall>>;
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
/** The headers Anthropic's SDKs send (the key as `x-api-key`, the API version). */
const anthropicHeaders = (key: string): Record<string, string> => ({
  'x-api-key': key,
  'anthropic-version': '2023-06-01',
});
const UPSTREAM_ANTHROPIC_AUTH = anthropicHeaders('sk-ant-bench-upstream-key-00000001');

/**
 * A target's call in a cell: the endpoint and the surface whose request body it gets. The
 * proxies cannot translate, so in a translated cell (messages, responses) they forward the chat
 * call the gateway's translation sends upstream: the floor for that model call, measured next
 * to the gateway in the same cell.
 */
export interface SurfaceCall {
  endpoint: Endpoint;
  sends: Surface;
}

export function callFor(target: Target, surface: Surface): SurfaceCall | undefined {
  return surface === 'chat' ? { endpoint: target.endpoint, sends: 'chat' } : target.surfaces[surface];
}

/** The proxies' calls: chat in place of the translated surfaces, Messages forwarded as they are. */
function proxyCalls(chat: Endpoint, messagesUrl: string): Target['surfaces'] {
  const asChat: SurfaceCall = { endpoint: chat, sends: 'chat' };
  return {
    messages: asChat,
    responses: asChat,
    azure: asChat,
    bedrock: asChat,
    gemini: asChat,
    native: { endpoint: { url: messagesUrl, headers: UPSTREAM_ANTHROPIC_AUTH }, sends: 'native' },
  };
}

/** Starts the fake upstream and the requested gateways (each an idle child until measured). */
export interface FleetOptions {
  names: readonly TargetName[];
  pin: Pinning;
  portkeyDir: string;
  switchyardLogLevel: string;
  /** Node flags for the Switchyard process (profiling). */
  switchyardNodeArgs?: string[];
  /** Node flags for the policy floor's process (profiling). */
  floorNodeArgs?: string[];
  /** Node flags for the bare proxy's process (profiling). */
  bareNodeArgs?: string[];
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
        const endpoint = { url: `${origin}/v1/chat/completions`, headers: UPSTREAM_AUTH };
        targets.push({
          name,
          endpoint,
          surfaces: proxyCalls(endpoint, `${origin}/v1/messages`),
          pid: upstream.pid,
        });
      } else if (name === 'bare') {
        const bare = await spawnChild({
          name,
          args: [...(options.bareNodeArgs ?? []), join(here, 'servers', 'bare-proxy.js'), origin],
          cores: options.pin.gateway,
          logFile: join(dir, 'bare.log'),
        });
        children.push(bare);
        const endpoint = { url: `http://127.0.0.1:${bare.port}/v1/chat/completions`, headers: UPSTREAM_AUTH };
        targets.push({
          name,
          endpoint,
          surfaces: proxyCalls(endpoint, `http://127.0.0.1:${bare.port}/v1/messages`),
          pid: bare.pid,
        });
      } else if (name === 'floor') {
        const floor = await startFloor({
          dir,
          upstreamOrigin: origin,
          cores: options.pin.gateway,
          script: join(here, 'servers', 'floor.js'),
          nodeArgs: options.floorNodeArgs,
        });
        children.push(floor.child);
        const endpoint = {
          url: `http://127.0.0.1:${floor.child.port}/v1/chat/completions`,
          headers: { authorization: `Bearer ${floor.apiKey}` },
        };
        // Chat only: in a translated cell it makes the chat call, like the bare proxy; native cells it sits out.
        const asChat: SurfaceCall = { endpoint, sends: 'chat' };
        targets.push({
          name,
          endpoint,
          surfaces: { messages: asChat, responses: asChat, azure: asChat, bedrock: asChat, gemini: asChat },
          pid: floor.child.pid,
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
        const api = `http://127.0.0.1:${sy.child.port}/api/v1`;
        const bearer = { authorization: `Bearer ${sy.apiKey}` };
        const messages = { url: `${api}/messages`, headers: anthropicHeaders(sy.apiKey) };
        targets.push({
          name,
          endpoint: { url: `${api}/chat/completions`, headers: bearer },
          surfaces: {
            messages: { endpoint: messages, sends: 'messages' },
            native: { endpoint: messages, sends: 'native' },
            responses: { endpoint: { url: `${api}/responses`, headers: bearer }, sends: 'responses' },
            azure: { endpoint: { url: `${api}/chat/completions`, headers: bearer }, sends: 'azure' },
            bedrock: { endpoint: { url: `${api}/chat/completions`, headers: bearer }, sends: 'bedrock' },
            gemini: { endpoint: { url: `${api}/chat/completions`, headers: bearer }, sends: 'gemini' },
            'responses-native': { endpoint: { url: `${api}/responses`, headers: bearer }, sends: 'responses-native' },
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
          surfaces: {},
          pid: pk.pid,
        });
      }
    }
    for (const t of targets) {
      await checkTarget(t);
      if (t.name === 'floor' || t.name === 'switchyard') await checkRedaction(t.name, t.endpoint);
    }
    return { targets, upstreamOrigin: origin, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** On every surface it serves, one JSON and one streamed call must succeed and carry the answer before anything is timed. */
async function checkTarget(target: Target): Promise<void> {
  for (const surface of SURFACES) {
    const call = callFor(target, surface);
    if (call === undefined) continue;
    for (const stream of [false, true]) {
      const res = await fetch(call.endpoint.url, {
        method: 'POST',
        headers: { ...call.endpoint.headers, 'content-type': 'application/json' },
        body: surfaceBody(call.sends, stream),
      });
      const text = await res.text();
      const ok =
        res.status === 200 && text.includes('canaries') && (!stream || text.includes(streamEndMarker(call.sends)));
      if (!ok)
        throw new Error(
          `${target.name} ${surface} ${stream ? 'stream' : 'JSON'} check failed: ${res.status} ${text.slice(0, 300)}`,
        );
    }
  }
}
