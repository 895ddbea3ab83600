/**
 * Sequential (c=1) latency added by Switchyard over the bare proxy, against the same fake upstream.
 * Each target is a process of its own (as in the peer benchmark's probe, unpinned unless `--cores`):
 * the bare proxy, with `--floor` the policy floor (floor-proxy.ts), this build's Switchyard (full policy), and with `--base DIR` a second Switchyard
 * built in DIR (DIR/dist/…), so a change is compared with its baseline in one run. Rounds alternate
 * the targets (the starting one rotating); each round times `--per-round` sequential JSON calls and
 * streamed calls per target with hrtime (whole JSON answer; streamed: the first body chunk).
 * Prints p50/p99 per target over all rounds, the median of the per-round p50s, and the difference
 * to the bare proxy. By default each call is sent as soon as the previous answer ended (what the
 * peer benchmark's probe does); `--pause MS` (fractions allowed) waits that long before each timed
 * call, spinning so the client's own wake-up is not timed, so the work a target still does after
 * its previous answer (its tail) is out of the next call's time.
 *   node dist/bench/gateway-bench/latency-c1.js [--rounds 6] [--per-round 300] [--base /work/wt/base26] [--pause 2]
 */
import { mkdtempSync, mkdirSync } from 'node:fs';
import { Agent } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { spawnChild, type BenchChild } from './child.js';
import { startFloor } from './floor-target.js';
import type { Endpoint } from './load.js';
import { requestBody } from './payloads.js';
import { once } from './probe.js';
import { median, percentile, Samples } from './stats.js';
import { startSwitchyard } from './switchyard-target.js';

const { values } = parseArgs({
  options: {
    rounds: { type: 'string', default: '6' },
    'per-round': { type: 'string', default: '300' },
    base: { type: 'string' },
    cores: { type: 'string' },
    'log-level': { type: 'string', default: 'info' },
    pause: { type: 'string', default: '0' },
    floor: { type: 'boolean', default: false },
  },
});
const pauseMs = Number(values.pause);
/** Spins for `pauseMs`: a timer's wake-up of this process would add its own delay to the call. */
const pause = () => {
  if (pauseMs <= 0) return;
  const until = process.hrtime.bigint() + BigInt(Math.round(pauseMs * 1e6));
  while (process.hrtime.bigint() < until);
};
const rounds = Number(values.rounds);
const perRound = Number(values['per-round']);
const cores = values.cores ?? null;
const here = dirname(fileURLToPath(import.meta.url));
const say = (msg: string) => process.stderr.write(`${msg}\n`);

interface Target {
  name: string;
  endpoint: Endpoint;
  child: BenchChild;
  json: Samples;
  first: Samples;
  jsonRoundP50: number[];
  firstRoundP50: number[];
}

const dir = mkdtempSync(join(tmpdir(), 'switchyard-latency-'));
const children: BenchChild[] = [];
const jsonBody = requestBody(false);
const streamBody = requestBody(true);
try {
  const upstream = await spawnChild({
    name: 'upstream',
    args: [join(here, 'servers', 'upstream.js')],
    cores,
    logFile: join(dir, 'upstream.log'),
  });
  children.push(upstream);
  const origin = `http://127.0.0.1:${upstream.port}`;
  const targets: Target[] = [];
  const add = (name: string, child: BenchChild, path: string, auth: string) => {
    children.push(child);
    targets.push({
      name,
      endpoint: { url: `http://127.0.0.1:${child.port}${path}`, headers: { authorization: `Bearer ${auth}` } },
      child,
      json: new Samples(),
      first: new Samples(),
      jsonRoundP50: [],
      firstRoundP50: [],
    });
  };
  const bare = await spawnChild({
    name: 'bare',
    args: [join(here, 'servers', 'bare-proxy.js'), origin],
    cores,
    logFile: join(dir, 'bare.log'),
  });
  add('bare', bare, '/v1/chat/completions', 'sk-bench-upstream-key-0000000001');
  if (values.floor === true) {
    const floor = await startFloor({ dir, upstreamOrigin: origin, cores, script: join(here, 'servers', 'floor.js') });
    add('floor', floor.child, '/v1/chat/completions', floor.apiKey);
  }
  const builds: [string, string][] = [['this build', join(here, 'servers', 'switchyard.js')]];
  if (values.base !== undefined)
    builds.push(['base', join(values.base, 'dist', 'bench', 'gateway-bench', 'servers', 'switchyard.js')]);
  for (const [name, script] of builds) {
    const own = join(dir, name.replace(/\W+/g, '-'));
    mkdirSync(own);
    const sy = await startSwitchyard({
      dir: own,
      upstreamOrigin: origin,
      cores,
      script,
      logLevel: values['log-level'] ?? 'info',
    });
    add(name, sy.child, '/api/v1/chat/completions', sy.apiKey);
  }
  const agents = new Map(targets.map((t) => [t, new Agent({ keepAlive: true, maxSockets: 1 })]));
  for (const t of targets) {
    const agent = agents.get(t) as Agent;
    for (let i = 0; i < 100; i++) {
      await once(agent, t.endpoint, jsonBody);
      await once(agent, t.endpoint, streamBody);
    }
  }
  for (let r = 0; r < rounds; r++) {
    for (let k = 0; k < targets.length; k++) {
      const t = targets[(r + k) % targets.length] as Target;
      const agent = agents.get(t) as Agent;
      const json = new Samples();
      const first = new Samples();
      for (let i = 0; i < perRound; i++) {
        pause();
        const j = (await once(agent, t.endpoint, jsonBody)).total;
        pause();
        const f = (await once(agent, t.endpoint, streamBody)).firstChunk;
        json.push(j);
        first.push(f);
        t.json.push(j);
        t.first.push(f);
      }
      t.jsonRoundP50.push(percentile(json.sorted(), 50));
      t.firstRoundP50.push(percentile(first.sorted(), 50));
    }
  }
  for (const agent of agents.values()) agent.destroy();
  const ms = (v: number) => v.toFixed(3);
  const ref = targets[0] as Target;
  const refJson = percentile(ref.json.sorted(), 50);
  const refFirst = percentile(ref.first.sorted(), 50);
  say(
    `c=1, ${rounds} rounds × ${perRound} JSON + ${perRound} streamed calls per target, ms` +
      (pauseMs > 0 ? `, ${pauseMs} ms pause before each call` : ', back-to-back'),
  );
  say('target        JSON p50  p99     +bare  [round p50s]            first chunk p50  p99     +bare  [round p50s]');
  for (const t of targets) {
    const j = t.json.sorted();
    const f = t.first.sorted();
    const jp50 = percentile(j, 50);
    const fp50 = percentile(f, 50);
    say(
      `${t.name.padEnd(12)}  ${ms(jp50)}  ${ms(percentile(j, 99))}  +${ms(jp50 - refJson)}  [${t.jsonRoundP50.map(ms).join(' ')}; median ${ms(median(t.jsonRoundP50))}]` +
        `   ${ms(fp50)}  ${ms(percentile(f, 99))}  +${ms(fp50 - refFirst)}  [${t.firstRoundP50.map(ms).join(' ')}; median ${ms(median(t.firstRoundP50))}]`,
    );
  }
} finally {
  for (const child of children.reverse()) await child.stop().catch(() => undefined);
}
