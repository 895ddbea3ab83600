// Resident memory of the gateway under a burst of faulty upstream answers, against a healthy
// burst in the same run. The gateway runs in its own process (fresh SQLite file) over the fake
// upstream (in this process). Per phase: `--calls` model calls over `--concurrency` connections,
// a mix of JSON and SSE on the OpenAI and Anthropic wires; RSS is sampled every 20 ms. Printed:
// RSS before, peak and after (after a full GC and a 1 s pause), per phase.
//   healthy: normal answers;
//   faulty:  garbage, 50 MB JSON bodies, 50 MB single SSE events (first and mid-stream), hangs
//            (no headers; headers then nothing), trickles and resets mid-body, in turn.
// `--max-body` / `--max-event` set the gateway's limits (defaults: the product's); pass
// `--max-body 33554432 --max-event 16777216` for the limits the gateway had before they were configurable.
//
//   npx tsc -p tsconfig.json && node dist/bench/fault-burst-bench.js [--calls 300] [--concurrency 50]
//     [--max-body <bytes>] [--max-event <bytes>] [--dialect sqlite|postgres|both]
import { parseArgs } from 'node:util';
import { createDatabase, startPostgres } from '../test/harness/postgres.js';
import { modelCall, startFaultGateway, SURFACES, type FaultGateway } from '../test/faults/fault-kit.js';

const { values } = parseArgs({
  options: {
    calls: { type: 'string', default: '300' },
    concurrency: { type: 'string', default: '50' },
    'max-body': { type: 'string' },
    'max-event': { type: 'string' },
    faults: { type: 'string' },
    dialect: { type: 'string', default: 'sqlite' },
  },
});
const DIALECTS = values.dialect === 'both' ? ['sqlite', 'postgres'] : [values.dialect];
const CALLS = Number(values.calls);
const CONCURRENCY = Number(values.concurrency);
const HUGE = 50 * 1024 * 1024;
const ALL_FAULTS = [
  'garbage',
  `huge-body-${HUGE}`,
  `huge-first-event-${HUGE}`,
  `huge-event-${HUGE}`,
  'hang',
  'hang-after-headers',
  'trickle-25',
  'cut-stream-after-2',
];
/** `--faults` picks some (comma-separated, e.g. `hang,garbage`) to see which one costs memory. */
const FAULTS = values.faults === undefined ? ALL_FAULTS : values.faults.split(',').map((f) => f.trim());

const mb = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(0)} MB`;

async function burst(gw: FaultGateway, faulty: boolean): Promise<{ statuses: Record<number, number>; peak: number }> {
  const statuses: Record<number, number> = {};
  let peak = gw.server.rssBytes();
  const sampler = setInterval(() => (peak = Math.max(peak, gw.server.rssBytes())), 20);
  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < CALLS) {
        const i = next++;
        const surface = SURFACES[i % SURFACES.length] ?? 'openai';
        const fault = faulty ? (FAULTS[Math.floor(i / 6) % FAULTS.length] ?? '') : '';
        const r = await modelCall(gw, surface, { stream: i % 2 === 0, fault });
        statuses[r.status] = (statuses[r.status] ?? 0) + 1;
      }
    }),
  );
  clearInterval(sampler);
  return { statuses, peak: Math.max(peak, gw.server.rssBytes()) };
}

async function settled(gw: FaultGateway): Promise<number> {
  await gw.renewPool();
  await gw.server.gc();
  await new Promise((resolve) => setTimeout(resolve, 1000));
  await gw.server.gc();
  return gw.server.rssBytes();
}

const env: Record<string, string> = { SWITCHYARD_STREAM_KEEPALIVE_AFTER_MS: '5000' };
if (values['max-body'] !== undefined) env.SWITCHYARD_UPSTREAM_MAX_BODY_BYTES = values['max-body'];
if (values['max-event'] !== undefined) env.SWITCHYARD_UPSTREAM_MAX_EVENT_BYTES = values['max-event'];
// glibc allocator tuning (MALLOC_ARENA_MAX, MALLOC_TRIM_THRESHOLD_, …) reaches the gateway process.
for (const [name, value] of Object.entries(process.env))
  if (name.startsWith('MALLOC_') && value !== undefined) env[name] = value;

/** The healthy and the faulty burst on one database, printed as they finish. */
async function phases(dialect: string, postgresUrl?: string): Promise<void> {
  const gw = await startFaultGateway(env, { defaultLimits: true, postgresUrl });
  try {
    console.log(`${dialect}:`);
    await burst(gw, false); // warm-up: JIT, pools, caches
    for (const faulty of [false, true]) {
      const before = await settled(gw);
      const started = performance.now();
      const { statuses, peak } = await burst(gw, faulty);
      const seconds = (performance.now() - started) / 1000;
      const after = await settled(gw);
      console.log(
        `  ${faulty ? 'faulty ' : 'healthy'}: before ${mb(before)}, peak ${mb(peak)}, after ${mb(after)} ` +
          `(after − before ${mb(after - before)}); ${CALLS} calls in ${seconds.toFixed(1)} s, answers ${JSON.stringify(statuses)}`,
      );
      const m = await gw.server.memory();
      console.log(
        `    after: heap used ${mb(m.heapUsed)} of ${mb(m.heapTotal)}, external ${mb(m.external)}, array buffers ${mb(m.arrayBuffers)}`,
      );
    }
  } finally {
    await gw.close();
  }
}

for (const dialect of DIALECTS) {
  if (dialect === 'sqlite') await phases(dialect);
  else {
    const pg = await startPostgres();
    try {
      await phases(dialect, await createDatabase(pg.url, 'fault_burst_bench'));
    } finally {
      await pg.stop();
    }
  }
}
console.log(
  `limits: body ${values['max-body'] ?? 'default'}, event ${values['max-event'] ?? 'default'}; concurrency ${CONCURRENCY}`,
);
