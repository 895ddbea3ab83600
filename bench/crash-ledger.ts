// SIGKILL under load with the ledger journal off and on, on SQLite and PostgreSQL: the share of
// delivered calls charged after restart. docs/metering.md, "The ledger journal".
//
//   npx tsc -p tsconfig.json && node dist/bench/crash-ledger.js [--rounds 3] [--calls 200] [--flush-ms 250]
//     [--pg postgres://superuser@host:port/postgres]   (default: a throwaway PostgreSQL of its own)
import { parseArgs } from 'node:util';
import { createDatabase, startPostgres, type PostgresServer } from '../test/harness/postgres.js';
import { tempSqlitePath } from '../test/harness/env.js';
import { crashRounds } from '../test/scale/crash-ledger.js';

const { values } = parseArgs({
  options: {
    rounds: { type: 'string', default: '3' },
    calls: { type: 'string', default: '200' },
    'flush-ms': { type: 'string', default: '250' },
    pg: { type: 'string' },
  },
});

const own: PostgresServer | null = values.pg === undefined ? await startPostgres() : null;
const pgAdmin = values.pg ?? own?.url ?? '';
let databases = 0;
const targets: { name: string; url: () => Promise<string> }[] = [
  { name: 'sqlite', url: () => Promise.resolve(`sqlite:${tempSqlitePath('crash.db').path}`) },
  { name: 'postgres', url: () => createDatabase(pgAdmin, `crash_bench_${process.pid}_${++databases}`) },
];

console.log(
  '| database | journal | round | delivered | charged (calls) | charged (cost) | replayed | counter = stored |',
);
console.log('|---|---|---|---|---|---|---|---|');
try {
  for (const target of targets) {
    for (const journal of [false, true]) {
      const rounds = await crashRounds(
        {
          databaseUrl: await target.url(),
          journal,
          calls: Number(values.calls),
          concurrency: 16,
          flushMs: Number(values['flush-ms']),
        },
        Number(values.rounds),
      );
      rounds.forEach((r, i) => {
        console.log(
          `| ${target.name} | ${journal ? 'on' : 'off'} | ${i + 1} | ${r.delivered} | ${((100 * r.recorded) / r.delivered).toFixed(1)}% | ` +
            `${(100 * r.chargedShare).toFixed(1)}% | ${r.replayed} | ${Math.abs(r.counterUsd - r.storedCostUsd) < 1e-9 ? 'yes' : 'NO'} |`,
        );
      });
    }
  }
} finally {
  await own?.stop();
}
