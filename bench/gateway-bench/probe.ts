import { Agent, request } from 'node:http';
import type { Endpoint } from './load.js';
import { cpuClock } from './proc.js';
import { percentile, Samples } from './stats.js';

/** Sequential (c=1) timings, timed with hrtime: sub-millisecond resolution. */
export interface ProbeResult {
  /** Non-streaming: whole response. */
  jsonP50Ms: number;
  jsonP99Ms: number;
  /** Streaming: response headers, first body chunk (first SSE event), whole stream. */
  headersP50Ms: number;
  firstChunkP50Ms: number;
  firstChunkP99Ms: number;
  streamP50Ms: number;
  /** The gateway's CPU (user + system) per JSON + streamed call pair while probed sequentially, µs; NaN when unknown. */
  cpuUsPerPair: number;
}

/** One sequential call's ms from the send: to the response headers, the first body chunk, the end. */
export interface Timing {
  headers: number;
  firstChunk: number;
  total: number;
}

/** POSTs `body` once (JSON) and times it; rejects on a status of 300 or more. */
export function once(agent: Agent, endpoint: Endpoint, body: string): Promise<Timing> {
  const url = new URL(endpoint.url);
  return new Promise((resolve, reject) => {
    const start = process.hrtime.bigint();
    const ms = () => Number(process.hrtime.bigint() - start) / 1e6;
    const req = request(
      {
        agent,
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        method: 'POST',
        headers: { ...endpoint.headers, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
      },
      (res) => {
        const headers = ms();
        let firstChunk = -1;
        res.on('data', () => {
          if (firstChunk < 0) firstChunk = ms();
        });
        res.on('end', () => {
          if ((res.statusCode ?? 0) >= 300) reject(new Error(`probe got status ${String(res.statusCode)}`));
          else resolve({ headers, firstChunk, total: ms() });
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

export async function probe(options: {
  endpoint: Endpoint;
  jsonBody: string;
  streamBody: string;
  count: number;
  pid: number;
}): Promise<ProbeResult> {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  try {
    const json = new Samples();
    const headers = new Samples();
    const first = new Samples();
    const whole = new Samples();
    const warm = Math.min(50, options.count);
    for (let i = 0; i < warm; i++) {
      await once(agent, options.endpoint, options.jsonBody);
      await once(agent, options.endpoint, options.streamBody);
    }
    const cpuUsPer = cpuClock(options.pid);
    for (let i = 0; i < options.count; i++) {
      json.push((await once(agent, options.endpoint, options.jsonBody)).total);
      const t = await once(agent, options.endpoint, options.streamBody);
      headers.push(t.headers);
      first.push(t.firstChunk);
      whole.push(t.total);
    }
    const cpuUsPerPair = cpuUsPer(options.count) ?? Number.NaN;
    const j = json.sorted();
    const f = first.sorted();
    return {
      jsonP50Ms: percentile(j, 50),
      jsonP99Ms: percentile(j, 99),
      headersP50Ms: percentile(headers.sorted(), 50),
      firstChunkP50Ms: percentile(f, 50),
      firstChunkP99Ms: percentile(f, 99),
      streamP50Ms: percentile(whole.sorted(), 50),
      cpuUsPerPair,
    };
  } finally {
    agent.destroy();
  }
}
