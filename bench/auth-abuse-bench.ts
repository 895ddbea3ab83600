// Valid-key throughput while bogus tokens are tried: per mode (failed-authentication throttle on
// with its defaults, and off), the server runs in its own process on a fresh SQLite file; a valid
// API key calls GET /api/v1/key over `--connections` connections for `--seconds` alone, then again
// while `--bogus` distinct random tokens are tried concurrently over `--bogus-connections`
// connections from the same address. Prints valid req/s in both phases and how the bogus tries
// were answered (401 before the address is throttled, 429 after).
//
//   npx tsc -p tsconfig.json && node dist/bench/auth-abuse-bench.js [--seconds 5] [--bogus 10000]
//     [--connections 8] [--bogus-connections 32] [--modes on,off]
import { parseArgs } from 'node:util';
import { Pool } from 'undici';
import { generateToken } from '../src/domain/keys/tokens.js';
import { startChildServer } from '../test/support/child-server.js';
import { tempSqlitePath } from '../test/harness/env.js';

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '5' },
    bogus: { type: 'string', default: '10000' },
    connections: { type: 'string', default: '8' },
    'bogus-connections': { type: 'string', default: '32' },
    modes: { type: 'string', default: 'on,off' },
  },
});
const SECONDS = Number(values.seconds);
const BOGUS = Number(values.bogus);
const CONNECTIONS = Number(values.connections);
const BOGUS_CONNECTIONS = Number(values['bogus-connections']);

async function get(pool: Pool, token: string): Promise<number> {
  const res = await pool.request({ path: '/api/v1/key', method: 'GET', headers: { authorization: `Bearer ${token}` } });
  await res.body.dump();
  return res.statusCode;
}

/** Valid-key requests over `connections` loops until `until()` says stop; returns completed 200s. */
async function validLoad(pool: Pool, token: string, until: () => boolean): Promise<{ ok: number; other: number }> {
  const counts = { ok: 0, other: 0 };
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      while (!until()) {
        if ((await get(pool, token)) === 200) counts.ok += 1;
        else counts.other += 1;
      }
    }),
  );
  return counts;
}

async function bogusLoad(pool: Pool): Promise<Record<number, number>> {
  const statuses: Record<number, number> = {};
  let next = 0;
  await Promise.all(
    Array.from({ length: BOGUS_CONNECTIONS }, async () => {
      while (next < BOGUS) {
        next += 1;
        const status = await get(pool, generateToken());
        statuses[status] = (statuses[status] ?? 0) + 1;
      }
    }),
  );
  return statuses;
}

async function runMode(mode: string): Promise<void> {
  const file = tempSqlitePath('auth-bench.db');
  const server = await startChildServer({
    databaseUrl: `sqlite:${file.path}`,
    env: mode === 'off' ? { SWITCHYARD_AUTH_FAILURE_LIMIT: '0' } : {},
  });
  const origin = server.api.replace(/\/api\/v1$/, '');
  const valid = new Pool(origin, { connections: CONNECTIONS });
  const bogus = new Pool(origin, { connections: BOGUS_CONNECTIONS });
  try {
    const created = await valid.request({
      path: '/api/v1/keys',
      method: 'POST',
      headers: { authorization: `Bearer ${server.managementToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'bench' }),
    });
    const { key } = (await created.body.json()) as { key: string };
    const warmEnd = Date.now() + 1000;
    await validLoad(valid, key, () => Date.now() >= warmEnd);

    const aloneStart = performance.now();
    const aloneEnd = Date.now() + SECONDS * 1000;
    const alone = await validLoad(valid, key, () => Date.now() >= aloneEnd);
    const aloneRps = alone.ok / ((performance.now() - aloneStart) / 1000);

    let bogusDone = false;
    const underStart = performance.now();
    const bogusRun = bogusLoad(bogus).finally(() => (bogusDone = true));
    const under = await validLoad(valid, key, () => bogusDone);
    const statuses = await bogusRun;
    const underS = (performance.now() - underStart) / 1000;
    const underRps = under.ok / underS;
    console.log(
      [
        `throttle ${mode}:`,
        `valid alone ${aloneRps.toFixed(0)} req/s;`,
        `valid during ${BOGUS} bogus ${underRps.toFixed(0)} req/s (${((underRps / aloneRps) * 100).toFixed(0)}%),`,
        `valid refused ${under.other + alone.other};`,
        `bogus took ${underS.toFixed(2)} s (${(BOGUS / underS).toFixed(0)}/s), answers ${JSON.stringify(statuses)}`,
      ].join(' '),
    );
  } finally {
    await valid.close();
    await bogus.close();
    await server.stop();
    file.cleanup();
  }
}

for (const mode of values.modes.split(',')) await runMode(mode.trim());
