import autocannon from 'autocannon';
import { requestBody } from './payloads.js';
import { peakRssBytes, rssBytes } from './proc.js';
import { slope } from './stats.js';
import type { Fleet } from './targets.js';

const MB = 1024 * 1024;

/**
 * Switchyard under steady load (c=10, JSON and streamed calls alternating) for `minutes`;
 * RSS sampled every 5 s. The slope is fitted after the first minute (JIT and caches warm).
 */
export async function runSoak(
  fleet: Fleet,
  options: { minutes: number; build: string; log: (m: string) => void },
): Promise<string> {
  const target = fleet.targets.find((t) => t.name === 'switchyard');
  if (target === undefined) throw new Error('soak needs the switchyard target');
  const seconds = Math.max(60, Math.round(options.minutes * 60));
  const points: { x: number; y: number }[] = [];
  const started = Date.now();
  const sampler = setInterval(() => {
    const rss = rssBytes(target.pid);
    if (rss !== null) points.push({ x: (Date.now() - started) / 60_000, y: rss / MB });
  }, 5000);
  const headers = { ...target.endpoint.headers, 'content-type': 'application/json' };
  let result: autocannon.Result;
  try {
    result = await new Promise<autocannon.Result>((resolve, reject) => {
      const instance = autocannon(
        {
          url: target.endpoint.url,
          connections: 10,
          duration: seconds,
          requests: [
            { method: 'POST', headers, body: requestBody(false) },
            { method: 'POST', headers, body: requestBody(true) },
          ],
        },
        (error: unknown, r: autocannon.Result) =>
          error === null || error === undefined
            ? resolve(r)
            : reject(error instanceof Error ? error : new Error('autocannon failed', { cause: error })),
      );
      let minute = 0;
      instance.on('tick', () => {
        const m = Math.floor((Date.now() - started) / 60_000);
        if (m > minute) {
          minute = m;
          options.log(`soak: ${m} min, RSS ${((rssBytes(target.pid) ?? 0) / MB).toFixed(1)} MB`);
        }
      });
    });
  } finally {
    clearInterval(sampler);
  }
  const settled = points.filter((p) => p.x >= 1);
  const half = points.filter((p) => p.x >= options.minutes / 2);
  const perMinute = new Map<number, number>();
  for (const p of points) perMinute.set(Math.floor(p.x), p.y);
  return [
    `# Switchyard soak ${new Date().toISOString()}`,
    '',
    `- Node ${process.version}; Switchyard ${options.build}`,
    `- ${seconds / 60} min at c=10, JSON and streamed calls alternating, full policy; ${result.requests.total.toLocaleString('en-US')} requests, ${result.errors + result.timeouts} errors, ${result.non2xx} non-2xx`,
    `- peak RSS (VmHWM) ${((peakRssBytes(target.pid) ?? Number.NaN) / MB).toFixed(1)} MB`,
    `- RSS slope after the first minute: ${slope(settled).toFixed(3)} MB/min; over the second half: ${slope(half).toFixed(3)} MB/min`,
    '',
    '| minute | RSS MB (last sample) |',
    '|---:|---:|',
    ...[...perMinute.entries()].map(([m, y]) => `| ${m} | ${y.toFixed(1)} |`),
    '',
  ].join('\n');
}
