// Delivery time of a change-feed notification between two replicas: one PostgresChangeFeed
// publishes 100 notifications in a row, another hears them. docs/deploy.md, "Caches".
//
//   npx tsc -p tsconfig.json && node dist/bench/change-feed-bench.js --url postgres://…/db [--count 100]
//
// Needs a PostgreSQL database it may LISTEN/NOTIFY on (the test harness's, or any scratch one).
import { parseArgs } from 'node:util';
import { PostgresChangeFeed } from '../src/store/postgres/change-feed.js';

const { values } = parseArgs({
  options: { url: { type: 'string' }, count: { type: 'string', default: '100' } },
});
const url = values.url ?? process.env.SWITCHYARD_BENCH_PG_URL;
if (url === undefined) throw new Error('--url (or SWITCHYARD_BENCH_PG_URL) names the PostgreSQL database');
const COUNT = Number(values.count);

const a = new PostgresChangeFeed({ url, applicationName: 'bench-feed-a' });
const b = new PostgresChangeFeed({ url, applicationName: 'bench-feed-b' });
await Promise.all([a.start(), b.start()]);
try {
  const sentAt = new Map<string, number>();
  const took: number[] = [];
  let heardAll: () => void = () => undefined;
  const done = new Promise<void>((resolve) => (heardAll = resolve));
  b.subscribe('keys', (id) => {
    const t = id === null ? undefined : sentAt.get(id);
    if (t !== undefined) took.push(performance.now() - t);
    if (took.length === COUNT) heardAll();
  });
  for (let i = 0; i < COUNT; i++) {
    sentAt.set(`m${i}`, performance.now());
    await a.publish('keys', `m${i}`);
  }
  await done;
  took.sort((x, y) => x - y);
  const at = (p: number) => (took[Math.min(took.length - 1, Math.floor((p / 100) * took.length))] ?? 0).toFixed(2);
  console.log(
    `change feed: publish on one replica -> heard on another: p50 ${at(50)} ms, p99 ${at(99)} ms, max ${at(100)} ms (${COUNT} notifications)`,
  );
} finally {
  await Promise.all([a.close(), b.close()]);
}
