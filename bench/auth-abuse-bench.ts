// Valid credentials under a flood of bogus tokens from the same address, on SQLite and on
// PostgreSQL (the server in its own process, failed-authentication throttle at its defaults):
//
// 1. valid-key throughput (GET `--path` over `--connections`) for `--seconds` alone, then as long
//    again (`--rounds` times each, alternating) while distinct random tokens are tried over `--bogus-connections` from the same
//    address (a throttled address's failures are answered after SWITCHYARD_AUTH_FAILURE_DELAY_MS,
//    default 1 s; `--delay-ms` sets it); the
//    default path, /api/v1/providers, is answered from memory, so the figure is the cost of
//    authentication (GET /api/v1/key also reads the key's usage from the store);
// 2. store reads per bogus request, from the server's own counter
//    (`switchyard_auth_key_store_reads_total`, read before and after the flood);
// 3. after the address was throttled on replica B: how long until a key created on replica A is
//    accepted on B (PostgreSQL: two server processes on one database; SQLite: the key is created
//    by the `switchyard` CLI in this process, another writer on the same file). The clock starts
//    when A answered the create; B is called at once and again until it answers 200.
//
//   npx tsc -p tsconfig.json && node dist/bench/auth-abuse-bench.js [--seconds 1] [--rounds 20] [--delay-ms 1000]
//     [--connections 8] [--bogus-connections 32] [--keys 20] [--dialects sqlite,postgres]
//     [--path /api/v1/providers]
import { tmpdir } from 'node:os';
import { parseArgs } from 'node:util';
import { Pool } from 'undici';
import { generateToken } from '../src/domain/keys/tokens.js';
import { startChildServer, type ChildServer } from '../test/support/child-server.js';
import { createDatabase, startPostgres, type PostgresServer } from '../test/harness/postgres.js';
import { tempSqlitePath } from '../test/harness/env.js';
import { runCli } from '../test/support/cli.js';
import { storeReads, keyAcceptance, type Replica } from './auth-abuse-replicas.js';

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '1' },
    rounds: { type: 'string', default: '20' },
    'delay-ms': { type: 'string', default: '1000' },
    connections: { type: 'string', default: '8' },
    'bogus-connections': { type: 'string', default: '32' },
    keys: { type: 'string', default: '20' },
    dialects: { type: 'string', default: 'sqlite,postgres' },
    path: { type: 'string', default: '/api/v1/providers' },
  },
});
const SECONDS = Number(values.seconds);
const ROUNDS = Number(values.rounds);
const SERVER_ENV = { SWITCHYARD_AUTH_FAILURE_DELAY_MS: values['delay-ms'] };
const CONNECTIONS = Number(values.connections);
const BOGUS_CONNECTIONS = Number(values['bogus-connections']);
const KEYS = Number(values.keys);

async function get(pool: Pool, token: string): Promise<number> {
  const res = await pool.request({ path: values.path, method: 'GET', headers: { authorization: `Bearer ${token}` } });
  await res.body.dump();
  return res.statusCode;
}

/** Valid-key requests over `connections` loops until `until()` says stop. */
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

async function bogusLoad(pool: Pool, until: () => boolean): Promise<Record<number, number>> {
  const statuses: Record<number, number> = {};
  await Promise.all(
    Array.from({ length: BOGUS_CONNECTIONS }, async () => {
      while (!until()) {
        const status = await get(pool, generateToken());
        statuses[status] = (statuses[status] ?? 0) + 1;
      }
    }),
  );
  return statuses;
}

async function createKey(server: Replica): Promise<string> {
  const res = await fetch(`${server.api}/keys`, {
    method: 'POST',
    headers: { authorization: `Bearer ${server.managementToken}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'bench' }),
  });
  const { key } = (await res.json()) as { key: string };
  return key;
}

/** One phase of `SECONDS`: valid requests alone, or with the bogus flood beside them. */
async function phase(pools: { valid: Pool; bogus: Pool }, key: string, flood: boolean) {
  const start = performance.now();
  const end = Date.now() + SECONDS * 1000;
  // Each side is timed on its own: the flood's last answers (held by the failure delay) arrive
  // after the valid loop stopped, and must not stretch the valid side's time.
  const timed = async <T>(work: Promise<T>) => ({ value: await work, seconds: (performance.now() - start) / 1000 });
  const [valid, bogus] = await Promise.all([
    timed(validLoad(pools.valid, key, () => Date.now() >= end)),
    timed(flood ? bogusLoad(pools.bogus, () => Date.now() >= end) : Promise.resolve({})),
  ]);
  return {
    rps: valid.value.ok / valid.seconds,
    refused: valid.value.other,
    statuses: bogus.value as Record<number, number>,
    seconds: bogus.seconds,
  };
}

const median = (values: number[]): number => [...values].sort((x, y) => x - y)[Math.floor(values.length / 2)] ?? 0;

/**
 * Parts 1 and 2 on one server: `--rounds` pairs of phases, alone then flooded, so that the
 * machine's load drifting over the run weighs on both sides alike; the medians are compared.
 */
async function throughput(label: string, server: ChildServer): Promise<void> {
  const origin = server.api.replace(/\/api\/v1$/, '');
  const pools = {
    valid: new Pool(origin, { connections: CONNECTIONS }),
    bogus: new Pool(origin, { connections: BOGUS_CONNECTIONS }),
  };
  try {
    const key = await createKey(server);
    // Warm up (JIT, connections) on both paths before anything is measured.
    const warmEnd = Date.now() + 3000;
    await Promise.all([
      validLoad(pools.valid, key, () => Date.now() >= warmEnd),
      bogusLoad(pools.bogus, () => Date.now() >= warmEnd),
    ]);
    const alone: number[] = [];
    const flooded: number[] = [];
    const answers: Record<number, number> = {};
    let refused = 0;
    let bogusCount = 0;
    let bogusSeconds = 0;
    const readsBefore = await storeReads(server);
    for (let round = 0; round < ROUNDS; round += 1) {
      // ABBA order: a load drifting up or down over the run favours neither side.
      const loudFirst = round % 2 === 1;
      const first = await phase(pools, key, loudFirst);
      const second = await phase(pools, key, !loudFirst);
      const [quiet, loud] = loudFirst ? [second, first] : [first, second];
      alone.push(quiet.rps);
      flooded.push(loud.rps);
      refused += quiet.refused + loud.refused;
      for (const [status, n] of Object.entries(loud.statuses)) {
        answers[Number(status)] = (answers[Number(status)] ?? 0) + n;
        bogusCount += n;
      }
      bogusSeconds += loud.seconds;
    }
    // The valid loop's key is cached: every read counted here is a bogus token's.
    const reads = (await storeReads(server)) - readsBefore;
    // Each round's two phases are adjacent in time: their ratio is the least disturbed by the
    // machine's other load, so the median of those ratios is the figure.
    const ratio = median(flooded.map((rps, i) => rps / (alone[i] ?? rps)));
    console.log(
      [
        `${label}: valid alone ${median(alone).toFixed(0)} req/s, during the bogus flood ${median(flooded).toFixed(0)} req/s`,
        `(medians of ${ROUNDS} rounds of ${SECONDS} s; median ratio within a round ${(ratio * 100).toFixed(0)}%),`,
        `valid refused ${refused};`,
        `bogus ${(bogusCount / bogusSeconds).toFixed(0)}/s over ${BOGUS_CONNECTIONS} connections, answers ${JSON.stringify(answers)};`,
        `store reads per bogus request ${(reads / Math.max(1, bogusCount)).toFixed(4)} (${reads} in all)`,
      ].join(' '),
    );
  } finally {
    await pools.valid.close();
    await pools.bogus.close();
  }
}

async function runSqlite(): Promise<void> {
  const file = tempSqlitePath('auth-bench.db');
  const databaseUrl = `sqlite:${file.path}`;
  const server = await startChildServer({ databaseUrl, env: SERVER_ENV, readyTimeoutMs: 120_000 });
  try {
    await throughput('sqlite', server);
    const viaCli = {
      name: 'the CLI',
      create: async () => {
        const created = await runCli(['keys', 'create-management', '--name', 'bench'], {
          SWITCHYARD_DATABASE_URL: databaseUrl,
        });
        return /token: (\S+)/.exec(created.out)?.[1] ?? '';
      },
    };
    await keyAcceptance('sqlite', { creator: viaCli, target: server, keys: KEYS });
  } finally {
    await server.stop();
    file.cleanup();
  }
}

async function runPostgres(): Promise<void> {
  let pg: PostgresServer | null = null;
  const servers: ChildServer[] = [];
  try {
    pg = await startPostgres();
    const databaseUrl = await createDatabase(pg.url, 'auth_bench');
    const env = { ...SERVER_ENV, SWITCHYARD_LEDGER_JOURNAL_DIR: tmpdir() };
    const a = await startChildServer({ databaseUrl, env, readyTimeoutMs: 120_000 });
    servers.push(a);
    const b = await startChildServer({ databaseUrl, env, readyTimeoutMs: 120_000 });
    servers.push(b);
    await throughput('postgres', b);
    const viaA = { name: 'replica A', create: () => createKey(a) };
    await keyAcceptance('postgres', { creator: viaA, target: b, keys: KEYS });
  } finally {
    for (const s of servers) await s.stop();
    await pg?.stop();
  }
}

for (const dialect of values.dialects.split(',').map((d) => d.trim())) {
  if (dialect === 'sqlite') await runSqlite();
  else if (dialect === 'postgres') await runPostgres();
}
