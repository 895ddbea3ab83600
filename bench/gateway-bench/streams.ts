import { Agent, request } from 'node:http';
import type { Endpoint } from './load.js';
import { requestBody } from './payloads.js';
import { cpuClock, peakRssBytes } from './proc.js';
import { percentile, Samples } from './stats.js';
import type { Fleet } from './targets.js';

/**
 * A model streaming 20 events a second for ~5 s: 100 content events 50 ms apart. With 512
 * streams that is ~100 new calls and ~10,000 events a second — what one shared core can also
 * generate and consume on the client side (25,000 events/s saturated the load generator).
 */
const INTERVAL_MS = 50;
const CONTENT_EVENTS = 100;
const STALL_MS = 100;

interface StreamStats {
  streams: number;
  failures: number;
  firstChunk: Samples;
  gaps: Samples;
  stalls: number;
  /** Wall time (ms) at which each stall ended: stalls close together are one episode of the gateway's. */
  stallAt: number[];
  /** The gateway's CPU over the recorded seconds, as a share of one core (null without /proc). */
  busy: number | null;
}

const emptyStats = (): StreamStats => ({
  streams: 0,
  failures: 0,
  firstChunk: new Samples(),
  gaps: new Samples(),
  stalls: 0,
  stallAt: [],
  busy: null,
});

function oneStream(agent: Agent, endpoint: Endpoint, body: string, stats: StreamStats | null): Promise<void> {
  const url = new URL(endpoint.url);
  return new Promise((resolve) => {
    if (stats === null) {
      // Warm-up: same traffic, nothing recorded.
      stats = emptyStats();
    }
    const s = stats;
    const start = performance.now();
    let last = -1;
    const req = request(
      {
        agent,
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        method: 'POST',
        headers: { ...endpoint.headers, 'content-type': 'application/json' },
      },
      (res) => {
        res.on('data', () => {
          const now = performance.now();
          const waited = last < 0 ? now - start : now - last;
          if (last < 0) s.firstChunk.push(waited);
          else s.gaps.push(waited);
          if (waited > STALL_MS) {
            s.stalls++;
            s.stallAt.push(performance.timeOrigin + now);
          }
          last = now;
        });
        res.on('end', () => {
          if (res.statusCode === 200) s.streams++;
          else s.failures++;
          resolve();
        });
        res.on('error', () => {
          s.failures++;
          resolve();
        });
      },
    );
    req.on('error', () => {
      s.failures++;
      resolve();
    });
    req.end(body);
  });
}

/**
 * `concurrency` clients, each looping over streams for warm-up + measured seconds. Client starts
 * are spread over one stream's duration, so arrivals are steady (not waves of 512 at once);
 * only streams that start after the warm-up are recorded.
 */
async function measure(
  endpoint: Endpoint,
  pid: number | null,
  concurrency: number,
  warmupS: number,
  seconds: number,
): Promise<StreamStats> {
  const agent = new Agent({ keepAlive: true, maxSockets: concurrency });
  const stats = emptyStats();
  const body = requestBody(true, { user: `bench-pace:${INTERVAL_MS}:${CONTENT_EVENTS}` });
  const begin = performance.now();
  const recordFrom = begin + warmupS * 1000;
  const until = recordFrom + seconds * 1000;
  const streamMs = INTERVAL_MS * (CONTENT_EVENTS + 4);
  const client = async (i: number) => {
    await new Promise((r) => setTimeout(r, (i / concurrency) * streamMs));
    while (performance.now() < until)
      await oneStream(agent, endpoint, body, performance.now() >= recordFrom ? stats : null);
  };
  const recording = (async () => {
    await new Promise((r) => setTimeout(r, recordFrom - performance.now()));
    const cpu = cpuClock(pid);
    await new Promise((r) => setTimeout(r, until - performance.now()));
    const perSecond = cpu(seconds);
    stats.busy = perSecond === null ? null : perSecond / 1e6;
  })();
  await Promise.all([recording, ...Array.from({ length: concurrency }, (_, i) => client(i))]);
  agent.destroy();
  return stats;
}

/** Stalls that ended within this of the one before belong to one episode (one hold-up of the gateway). */
const EPISODE_GAP_MS = 50;

interface Episode {
  /** Wall time of the episode's first stall's end, ms. */
  at: number;
  stalls: number;
}

/** The stalls grouped into episodes: a pause of the gateway stalls many streams at once. */
function episodes(stallAt: number[]): Episode[] {
  const sorted = stallAt.slice().sort((a, b) => a - b);
  const out: Episode[] = [];
  let previous = Number.NEGATIVE_INFINITY;
  for (const at of sorted) {
    const current = out.at(-1);
    if (current === undefined || at - previous > EPISODE_GAP_MS) out.push({ at, stalls: 1 });
    else current.stalls++;
    previous = at;
  }
  return out;
}

/** N concurrent paced streams through the bare proxy and Switchyard: time to first chunk and gaps. */
export async function runStreams(
  fleet: Fleet,
  options: { streams: number; build: string; log: (m: string) => void },
): Promise<string> {
  const lines = [
    `# ${options.streams} concurrent streams ${new Date().toISOString()}`,
    '',
    `Node ${process.version}; Switchyard ${options.build}.`,
    '',
    `Each stream: role at once, ${CONTENT_EVENTS} content events ${INTERVAL_MS} ms apart (~${Math.round(1000 / INTERVAL_MS)} events/s), then finish, usage and [DONE] together, as providers send them. Clients start spread over one stream's length and loop; streams starting in the 20 s after an 8 s warm-up are recorded. A stall is a first chunk later than ${STALL_MS} ms or a gap between chunks longer than ${STALL_MS} ms; stalls that end within ${EPISODE_GAP_MS} ms of each other are one episode (one hold-up stalls many streams at once). Gateway core busy: the gateway process's CPU time (all its threads) over the recorded seconds, as a share of the one core it is pinned to.`,
    '',
    '| target | streams | failures | first chunk p50 / p99 / max ms | gap p99 / max ms | stalls > 100 ms | stall episodes (stalls in the largest) | gateway core busy | peak RSS MB |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|',
  ];
  for (const target of fleet.targets) {
    const s = await measure(target.endpoint, target.pid, options.streams, 8, 20);
    const fc = s.firstChunk.sorted();
    const gaps = s.gaps.sorted();
    const max = (a: Float64Array) => (a.length === 0 ? Number.NaN : (a[a.length - 1] ?? Number.NaN));
    const rss = (peakRssBytes(target.pid) ?? Number.NaN) / 1024 / 1024;
    const held = episodes(s.stallAt);
    const largest = held.reduce((m, e) => Math.max(m, e.stalls), 0);
    options.log(`streams ${target.name}: ${s.streams} ok, ${s.stalls} stalls, max gap ${max(gaps).toFixed(1)} ms`);
    for (const e of held.filter((e) => e.stalls >= 10))
      options.log(`  episode at ${new Date(e.at).toISOString()}: ${e.stalls} stalls`);
    lines.push(
      `| ${target.name} | ${s.streams} | ${s.failures} | ${percentile(fc, 50).toFixed(1)} / ${percentile(fc, 99).toFixed(1)} / ${max(fc).toFixed(1)} | ${percentile(gaps, 99).toFixed(1)} / ${max(gaps).toFixed(1)} | ${s.stalls} | ${held.length} (${largest}) | ${s.busy === null ? '—' : `${(s.busy * 100).toFixed(0)}%`} | ${rss.toFixed(1)} |`,
    );
  }
  return [...lines, ''].join('\n');
}
