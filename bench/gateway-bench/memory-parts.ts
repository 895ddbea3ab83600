/**
 * What each part of a Switchyard process takes in memory: RSS and V8 heap after each step, each
 * step's growth over the one before, after a full collection. Steps: Node alone, the npm
 * packages the server imports, the person-name lexicon, the tokenizer's tables, the rest of
 * Switchyard's modules, compromise (the name filter's sentence parser), and a started, idle
 * server (SQLite file, the benchmark's catalog, no upstream called).
 *   node --expose-gc dist/bench/gateway-bench/memory-parts.js
 * Each step only adds to the process, so the order matters for attribution (a module imported
 * by an earlier step is not counted again); run it once per order question.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { getHeapSpaceStatistics } from 'node:v8';

const rows: { step: string; rss: number; heap: number; external: number }[] = [];

function measure(step: string): void {
  if (typeof globalThis.gc === 'function') {
    globalThis.gc();
    globalThis.gc();
  }
  const mu = process.memoryUsage();
  // `external` already includes the array buffers (typed arrays, Buffers).
  rows.push({ step, rss: mu.rss, heap: mu.heapUsed, external: mu.external });
}

/** The process's peak resident set so far (Linux), in bytes; null elsewhere. */
function peakRss(): number | null {
  try {
    const hwm = /VmHWM:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'));
    return hwm?.[1] === undefined ? null : Number(hwm[1]) * 1024;
  } catch {
    return null;
  }
}

measure('node alone');
await import('fastify');
await import('undici');
await import('kysely');
await import('better-sqlite3');
await import('pino');
await import('re2');
measure('npm packages (fastify, undici, kysely, better-sqlite3, pino, re2)');
const { classifyWord } = await import('../../src/filters/builtins/name-lexicon.js');
classifyWord('maria');
measure('name lexicon (built when a filter set with the person-name filter is compiled)');
const { loadTokenizer, estimatedUsage } = await import('../../src/canonical/usage.js');
loadTokenizer();
estimatedUsage('warm the encoder', 'up');
measure('tokenizer (o200k_base tables from the gpt-tokenizer rank file, loaded by the server before the port opens)');
const { startServer } = await import('../../src/server.js');
const { loadServerConfig } = await import('../../src/config/env.js');
const { generateToken } = await import('../../src/domain/keys/tokens.js');
measure("the rest of Switchyard's modules (src/server.js and all it imports)");
createRequire(import.meta.url)('compromise');
measure('compromise (loaded only when a sentence needs its parser)');

const dir = mkdtempSync(join(tmpdir(), 'switchyard-memory-'));
try {
  const { catalog } = await import('./switchyard-target.js');
  writeFileSync(join(dir, 'catalog.json'), JSON.stringify(catalog('http://127.0.0.1:9')));
  const server = await startServer({
    config: loadServerConfig({
      PORT: '0',
      HOST: '127.0.0.1',
      SWITCHYARD_DATABASE_URL: `sqlite:${join(dir, 'switchyard.db')}`,
      SWITCHYARD_MANAGEMENT_KEY: generateToken(),
      SWITCHYARD_CONFIG: join(dir, 'catalog.json'),
      SWITCHYARD_LOG_LEVEL: 'warn',
    }),
  });
  await new Promise((resolve) => setTimeout(resolve, 2000));
  measure(
    'server started, idle 2 s (SQLite, ledger journal; routes compiled on first use, no checkpoint worker before a call)',
  );
  await server.close();
} finally {
  rmSync(dir, { recursive: true, force: true });
}

const mb = (n: number) => (n / 1048576).toFixed(1);
process.stdout.write('| step | RSS MB | + RSS | heap used MB | + heap | external (array buffers included) MB |\n');
process.stdout.write('|---|---:|---:|---:|---:|---:|\n');
let prev: (typeof rows)[number] | null = null;
for (const row of rows) {
  const dRss = prev === null ? '' : mb(row.rss - prev.rss);
  const dHeap = prev === null ? '' : mb(row.heap - prev.heap);
  process.stdout.write(
    `| ${row.step} | ${mb(row.rss)} | ${dRss} | ${mb(row.heap)} | ${dHeap} | ${mb(row.external)} |\n`,
  );
  prev = row;
}
const young = getHeapSpaceStatistics().find((space) => space.space_name === 'new_space');
if (young !== undefined) {
  process.stdout.write(`young generation (new space) resident at the end: ${mb(young.physical_space_size)} MB\n`);
}
const peak = peakRss();
if (peak !== null) process.stdout.write(`peak RSS of the whole run: ${mb(peak)} MB\n`);
