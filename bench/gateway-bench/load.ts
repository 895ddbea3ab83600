import autocannon from 'autocannon';
import { cpuClock } from './proc.js';
import { percentile, Samples } from './stats.js';

/** One HTTP target as the load generator sees it. */
export interface Endpoint {
  url: string;
  headers: Record<string, string>;
}

export interface CellResult {
  requests: number;
  rps: number;
  /** Latencies timed from autocannon's float durations (its own histogram has 1 ms steps). */
  p50Ms: number;
  p99Ms: number;
  errors: number;
  non2xx: number;
  /** CPU time of the measured process per completed request, µs (null: no process to read). */
  cpuUsPerRequest: number | null;
}

function fire(
  endpoint: Endpoint,
  body: string,
  connections: number,
  seconds: number,
  samples: Samples | null,
): Promise<autocannon.Result> {
  return new Promise((resolve, reject) => {
    const instance = autocannon(
      {
        url: endpoint.url,
        method: 'POST',
        headers: { ...endpoint.headers, 'content-type': 'application/json' },
        body,
        connections,
        pipelining: 1,
        duration: seconds,
        timeout: 20,
      },
      (error: unknown, result: autocannon.Result) =>
        error === null || error === undefined
          ? resolve(result)
          : reject(error instanceof Error ? error : new Error('autocannon failed', { cause: error })),
    );
    if (samples !== null) {
      instance.on('response', (_client, status, _bytes, ms) => {
        if (status >= 200 && status < 300) samples.push(ms);
      });
    }
  });
}

/** Warm-up (discarded), then the measured run with the process' CPU time read around it. */
export async function runCell(options: {
  endpoint: Endpoint;
  body: string;
  connections: number;
  warmupS: number;
  seconds: number;
  pid: number | null;
}): Promise<CellResult> {
  if (options.warmupS > 0) await fire(options.endpoint, options.body, options.connections, options.warmupS, null);
  const samples = new Samples();
  const cpuUsPer = cpuClock(options.pid);
  const started = process.hrtime.bigint();
  const result = await fire(options.endpoint, options.body, options.connections, options.seconds, samples);
  const elapsedS = Number(process.hrtime.bigint() - started) / 1e9;
  const sorted = samples.sorted();
  const ok = sorted.length;
  return {
    requests: ok,
    rps: ok / elapsedS,
    p50Ms: percentile(sorted, 50),
    p99Ms: percentile(sorted, 99),
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
    cpuUsPerRequest: cpuUsPer(ok),
  };
}
