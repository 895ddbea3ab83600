// Hot key vs. spread keys across three replicas on one PostgreSQL (issue #7).
//
//   npx tsc -p tsconfig.json && node dist/bench/scale-bench.js [--seconds 5] [--connections 8] [--keys 64] [--rounds 4]
//
// Starts its own PostgreSQL (Debian's postgresql binaries, as the test harness does) and three
// replicas as separate processes, each key with a spending limit so every call goes through the
// budget leases. Load: one autocannon per replica, all at once, on the built-in demo model.
// "hot": every connection of every replica uses ONE key; "spread": the connections use `--keys`
// keys. Prints throughput, p50/p99, database commits and budget-lease rows written per 1000 calls
// for each, and the ratio (median over rounds); exits 1 when the hot key reaches less than 80% of
// the spread throughput. On a shared machine, run it when it is quiet: other load adds noise.
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import pg from 'pg';
import { freePort } from '../test/harness/postgres.js';
import { request, startCluster, type Cluster, type Replica } from '../test/scale/cluster.js';

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '5' },
    connections: { type: 'string', default: '8' },
    keys: { type: 'string', default: '64' },
    rounds: { type: 'string', default: '4' },
  },
});
const SECONDS = Number(values.seconds);
const CONNECTIONS = Number(values.connections);
const KEYS = Number(values.keys);
const ROUNDS = Number(values.rounds);
const BODY = JSON.stringify({
  model: 'demo/echo',
  max_tokens: 16,
  messages: [{ role: 'user', content: 'hello there' }],
});

interface CaseResult {
  rps: number;
  p50: number;
  p99: number;
  failed: number;
  commitsPer1k: number;
  leaseWritesPer1k: number;
}

const percentile = (sorted: readonly number[], p: number): number =>
  sorted.length === 0
    ? Number.NaN
    : (sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN);

function load(
  replica: Replica,
  tokens: readonly string[],
  offset: number,
  seconds: number,
  latencies: number[] | null,
): Promise<autocannon.Result> {
  let next = 0;
  return new Promise((resolve, reject) => {
    const instance = autocannon(
      {
        url: `${replica.api}/chat/completions`,
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: BODY,
        connections: CONNECTIONS,
        duration: seconds,
        timeout: 20,
        setupClient: (client) => {
          const token = tokens[(offset + next++) % tokens.length] ?? '';
          client.setHeaders({ 'content-type': 'application/json', authorization: `Bearer ${token}` });
        },
      },
      (error: unknown, result: autocannon.Result) =>
        error === null || error === undefined
          ? resolve(result)
          : reject(error instanceof Error ? error : new Error('autocannon failed', { cause: error })),
    );
    if (latencies !== null) {
      instance.on('response', (_client, status, _bytes, ms) => {
        if (status >= 200 && status < 300) latencies.push(ms);
      });
    }
  });
}

/** Transactions committed in the database, and rows written to budget_leases (grants and renewals). */
async function counters(db: pg.Client): Promise<{ commits: number; leaseWrites: number }> {
  const c = await db.query<{ n: string }>(
    'SELECT xact_commit AS n FROM pg_stat_database WHERE datname = current_database()',
  );
  const l = await db.query<{ n: string }>(
    "SELECT n_tup_ins + n_tup_upd AS n FROM pg_stat_user_tables WHERE relname = 'budget_leases'",
  );
  return { commits: Number(c.rows[0]?.n ?? 0), leaseWrites: Number(l.rows[0]?.n ?? 0) };
}

async function warmUp(cluster: Cluster, tokens: readonly string[]): Promise<void> {
  await Promise.all(cluster.replicas.map((r, i) => load(r, tokens, i * CONNECTIONS, 2, null)));
}

async function runCase(cluster: Cluster, db: pg.Client, tokens: readonly string[]): Promise<CaseResult> {
  const replicas = cluster.replicas;
  const latencies: number[] = [];
  // Statistics reach pg_stat_* with a delay of up to PGSTAT_MIN_INTERVAL (1 s).
  await new Promise((resolve) => setTimeout(resolve, 1100));
  const before = await counters(db);
  const started = performance.now();
  const results = await Promise.all(replicas.map((r, i) => load(r, tokens, i * CONNECTIONS, SECONDS, latencies)));
  const elapsed = (performance.now() - started) / 1000;
  await new Promise((resolve) => setTimeout(resolve, 1100));
  const after = await counters(db);
  latencies.sort((a, b) => a - b);
  return {
    rps: latencies.length / elapsed,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    failed: results.reduce((n, r) => n + r.non2xx + r.errors + r.timeouts, 0),
    commitsPer1k: latencies.length === 0 ? Number.NaN : ((after.commits - before.commits) / latencies.length) * 1000,
    leaseWritesPer1k:
      latencies.length === 0 ? Number.NaN : ((after.leaseWrites - before.leaseWrites) / latencies.length) * 1000,
  };
}

async function newKeys(cluster: Cluster, count: number): Promise<string[]> {
  const [first] = cluster.replicas;
  if (first === undefined) throw new Error('no replica');
  const tokens: string[] = [];
  for (let i = 0; i < count; i++) {
    const res = await request<{ key: string }>(first, 'POST', '/keys', cluster.managementToken, {
      name: `bench-${i}`,
      limit: 1_000_000,
    });
    if (res.status !== 201) throw new Error(`creating a key: ${res.status}`);
    tokens.push(res.body.key);
  }
  return tokens;
}

const row = (name: string, r: CaseResult) =>
  `| ${name.padEnd(22)} | ${r.rps.toFixed(0).padStart(7)} | ${r.p50.toFixed(2).padStart(7)} | ${r.p99.toFixed(2).padStart(7)} | ${String(r.failed).padStart(6)} | ${r.commitsPer1k.toFixed(1).padStart(10)} | ${r.leaseWritesPer1k.toFixed(1).padStart(11)} |`;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? Number.NaN;

async function main(): Promise<number> {
  const ports = await Promise.all([freePort(), freePort(), freePort()]);
  const cluster = await startCluster(3, { SWITCHYARD_LOG_LEVEL: 'warn' }, (i) => ({ PORT: String(ports[i]) }));
  const db = new pg.Client({ connectionString: cluster.databaseUrl });
  try {
    await db.connect();
    const hot = await newKeys(cluster, 1);
    const spread = await newKeys(cluster, KEYS);
    process.stdout.write(
      `3 replicas, ${CONNECTIONS} connections each, ${SECONDS} s per run, ${ROUNDS} round(s); spread over ${KEYS} keys; every key has a limit\n\n`,
    );
    process.stdout.write(
      '| case                   |   req/s | p50 ms  | p99 ms  | failed | commits/1k | lease rows/1k |\n|---|---|---|---|---|---|---|\n',
    );
    // Both cases warm (JIT, pools, caches, leases) before anything is measured.
    await warmUp(cluster, hot);
    await warmUp(cluster, spread);
    const ratios: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      // Interleaved, the order alternating, so drift (other load on the machine) hits both alike.
      const hotFirst = round % 2 === 0;
      const first = await runCase(cluster, db, hotFirst ? hot : spread);
      const second = await runCase(cluster, db, hotFirst ? spread : hot);
      const [h, s] = hotFirst ? [first, second] : [second, first];
      process.stdout.write(
        `${row(`hot key (round ${round + 1})`, h)}\n${row(`${KEYS} keys (round ${round + 1})`, s)}\n`,
      );
      ratios.push(h.rps / s.rps);
    }
    const ratio = median(ratios);
    const pass = ratio >= 0.8;
    process.stdout.write(
      `\nhot / spread throughput: ${(ratio * 100).toFixed(1)}% (median of ${ratios.length}; target >= 80%): ${pass ? 'PASS' : 'FAIL'}\n`,
    );
    return pass ? 0 : 1;
  } finally {
    await db.end().catch(() => undefined);
    await cluster.close();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`scale-bench: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(2);
  },
);
