import { Agent, request } from 'node:http';
import type { Endpoint } from './load.js';
import { requestBody } from './payloads.js';
import { peakRssBytes } from './proc.js';
import { percentile, Samples } from './stats.js';
import type { Fleet } from './targets.js';

/** The upstream spaces its 21 events by this much, so each stream lasts ~1 s (a brisk model). */
const INTERVAL_MS = 50;
const STALL_MS = 100;

interface StreamStats {
  streams: number;
  failures: number;
  firstChunk: Samples;
  gaps: Samples;
  stalls: number;
}

function oneStream(agent: Agent, endpoint: Endpoint, body: string, stats: StreamStats): Promise<void> {
  const url = new URL(endpoint.url);
  return new Promise((resolve) => {
    const start = performance.now();
    let last = -1;
    const req = request(
      { agent, host: url.hostname, port: url.port, path: url.pathname, method: 'POST', headers: { ...endpoint.headers, 'content-type': 'application/json' } },
      (res) => {
        res.on('data', () => {
          const now = performance.now();
          if (last < 0) {
            stats.firstChunk.push(now - start);
            if (now - start > STALL_MS) stats.stalls++;
          } else {
            stats.gaps.push(now - last);
            if (now - last > STALL_MS) stats.stalls++;
          }
          last = now;
        });
        res.on('end', () => {
          if (res.statusCode === 200) stats.streams++;
          else stats.failures++;
          resolve();
        });
        res.on('error', () => {
          stats.failures++;
          resolve();
        });
      },
    );
    req.on('error', () => {
      stats.failures++;
      resolve();
    });
    req.end(body);
  });
}

async function measure(endpoint: Endpoint, concurrency: number, seconds: number): Promise<StreamStats> {
  const agent = new Agent({ keepAlive: true, maxSockets: concurrency });
  const stats: StreamStats = { streams: 0, failures: 0, firstChunk: new Samples(), gaps: new Samples(), stalls: 0 };
  const body = requestBody(true, { bench_chunk_interval_ms: INTERVAL_MS });
  const until = performance.now() + seconds * 1000;
  const client = async () => {
    while (performance.now() < until) await oneStream(agent, endpoint, body, stats);
  };
  await Promise.all(Array.from({ length: concurrency }, client));
  agent.destroy();
  return stats;
}

/** N concurrent paced streams through the bare proxy and Switchyard: time to first chunk and gaps. */
export async function runStreams(fleet: Fleet, options: { streams: number; log: (m: string) => void }): Promise<string> {
  const lines = [
    `# ${options.streams} concurrent streams ${new Date().toISOString()}`,
    '',
    `Each stream: 21 events ${INTERVAL_MS} ms apart from the upstream; every client loops for 10 s after a 3 s warm-up. A stall is a first chunk later than ${STALL_MS} ms or a gap between chunks longer than ${STALL_MS} ms.`,
    '',
    '| target | streams | failures | first chunk p50 / p99 / max ms | gap p99 / max ms | stalls > 100 ms | peak RSS MB |',
    '|---|---:|---:|---:|---:|---:|---:|',
  ];
  for (const target of fleet.targets) {
    await measure(target.endpoint, options.streams, 3);
    const s = await measure(target.endpoint, options.streams, 10);
    const fc = s.firstChunk.sorted();
    const gaps = s.gaps.sorted();
    const max = (a: Float64Array) => (a.length === 0 ? Number.NaN : (a[a.length - 1] ?? Number.NaN));
    const rss = (peakRssBytes(target.pid) ?? Number.NaN) / 1024 / 1024;
    options.log(`streams ${target.name}: ${s.streams} ok, ${s.stalls} stalls, max gap ${max(gaps).toFixed(1)} ms`);
    lines.push(
      `| ${target.name} | ${s.streams} | ${s.failures} | ${percentile(fc, 50).toFixed(1)} / ${percentile(fc, 99).toFixed(1)} / ${max(fc).toFixed(1)} | ${percentile(gaps, 99).toFixed(1)} / ${max(gaps).toFixed(1)} | ${s.stalls} | ${rss.toFixed(1)} |`,
    );
  }
  return [...lines, ''].join('\n');
}
