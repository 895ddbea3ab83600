// `npm test` entry point: starts one throwaway PostgreSQL, runs every compiled *.test.js
// under dist/ with Node's test runner, stops PostgreSQL, exits with the runner's code.
// Usage: node dist/test/harness/run-tests.js [path-substring...] [--node-test-flag...]
// Arguments starting with `-` (e.g. --test-name-pattern=retry) are passed on to `node --test`.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PG_URL_ENV, SKIP_PG_ENV } from './env.js';
import { PostgresBinariesMissingError, startPostgres, type PostgresServer } from './postgres.js';

const distRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const repoRoot = dirname(distRoot);
const EXCLUDED_DIRS = new Set([join(distRoot, 'bench'), join(distRoot, 'node_modules')]);

function log(msg: string): void {
  process.stderr.write(`[run-tests] ${msg}\n`);
}

function findTestFiles(dir: string, out: string[]): void {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== 'node_modules' && !EXCLUDED_DIRS.has(full)) findTestFiles(full, out);
    } else if (entry.isFile() && entry.name.endsWith('.test.js')) {
      out.push(full);
    }
  }
}

/** dist/x/y.test.js is stale when x/y.test.ts no longer exists (tsc never deletes outputs). */
function hasSource(distFile: string): boolean {
  const rel = relative(distRoot, distFile);
  return existsSync(join(repoRoot, rel.replace(/\.js$/, '.ts')));
}

function selectFiles(filters: readonly string[]): string[] {
  const all: string[] = [];
  if (existsSync(distRoot)) findTestFiles(distRoot, all);
  const stale = all.filter((f) => !hasSource(f));
  if (stale.length > 0) log(`ignoring ${stale.length} stale compiled test(s) without a .ts source`);
  return all
    .filter(hasSource)
    .map((f) => relative(repoRoot, f))
    .filter((f) => filters.length === 0 || filters.some((s) => f.includes(s) || f.split(sep).join('/').includes(s)))
    .sort();
}

function concurrency(): number {
  const raw = process.env['SWITCHYARD_TEST_CONCURRENCY'];
  const n = raw === undefined ? 2 : Number.parseInt(raw, 10);
  return Number.isInteger(n) && n > 0 ? n : 2;
}

interface Counts {
  pass: number | null;
  fail: number | null;
  skipped: number | null;
}

/** Reads the runner's closing counts (`ℹ pass 3` from spec, `# pass 3` from tap). */
function scanCounts(line: string, counts: Counts): void {
  const m = /^(?:ℹ|#) (pass|fail|skipped) (\d+)\s*$/.exec(line);
  if (m?.[1] !== undefined && m[2] !== undefined) {
    const key = m[1] as keyof Counts;
    counts[key] = Number(m[2]);
  }
}

async function main(): Promise<number> {
  const argv = process.argv.slice(2);
  const filters = argv.filter((a) => !a.startsWith('-'));
  const extraFlags = argv.filter((a) => a.startsWith('-'));
  const files = selectFiles(filters);
  if (files.length === 0) {
    log(
      filters.length > 0 ? `no test files match ${filters.join(', ')}` : `no *.test.js under ${distRoot}: build first`,
    );
    return 1;
  }

  let pgServer: PostgresServer | null = null;
  let child: ChildProcess | null = null;
  let cleaning: Promise<void> | null = null;
  const cleanup = (): Promise<void> => {
    cleaning ??= (async () => {
      if (pgServer !== null) {
        await pgServer.stop().catch((err: unknown) => log(`stopping PostgreSQL failed: ${String(err)}`));
        log('PostgreSQL stopped');
      }
    })();
    return cleaning;
  };
  for (const sig of ['SIGINT', 'SIGTERM'] as const) {
    process.on(sig, () => {
      log(`${sig}: stopping`);
      child?.kill(sig);
      void cleanup().finally(() => process.exit(sig === 'SIGINT' ? 130 : 143));
    });
  }

  const env: NodeJS.ProcessEnv = { ...process.env };
  try {
    if (env[PG_URL_ENV]) {
      log(`reusing PostgreSQL from ${PG_URL_ENV}`);
    } else if (env[SKIP_PG_ENV] === '1') {
      log(`${SKIP_PG_ENV}=1: PostgreSQL suites will skip themselves`);
    } else {
      const t0 = Date.now();
      try {
        pgServer = await startPostgres();
      } catch (err) {
        if (err instanceof PostgresBinariesMissingError) {
          log(err.message);
          return 1;
        }
        throw err;
      }
      env[PG_URL_ENV] = pgServer.url;
      log(`PostgreSQL up at ${pgServer.url} in ${Date.now() - t0} ms`);
    }

    const n = concurrency();
    const reporter = process.env['SWITCHYARD_TEST_REPORTER'] ?? 'spec';
    const args = [
      '--test',
      `--test-concurrency=${n}`,
      '--test-timeout=120000',
      `--test-reporter=${reporter}`,
      ...extraFlags,
      ...files,
    ];
    log(`running ${files.length} test file(s), concurrency ${n}`);
    const counts: Counts = { pass: null, fail: null, skipped: null };
    const code = await new Promise<number>((resolveCode, reject) => {
      const c = spawn(process.execPath, args, { cwd: repoRoot, env, stdio: ['ignore', 'pipe', 'inherit'] });
      child = c;
      let pending = '';
      c.stdout?.on('data', (chunk: Buffer) => {
        process.stdout.write(chunk);
        pending += chunk.toString('utf8');
        const lines = pending.split('\n');
        pending = lines.pop() ?? '';
        for (const line of lines) scanCounts(line, counts);
      });
      c.once('error', reject);
      c.once('close', (exitCode, signal) => {
        scanCounts(pending, counts);
        resolveCode(exitCode ?? (signal !== null ? 1 : 0));
      });
    });
    if (counts.pass !== null && counts.fail !== null) {
      process.stdout.write(`\ntests: ${counts.pass} passed, ${counts.fail} failed, ${counts.skipped ?? 0} skipped\n`);
    }
    return code;
  } finally {
    await cleanup();
  }
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    log(err instanceof Error ? (err.stack ?? err.message) : String(err));
    process.exit(1);
  },
);
