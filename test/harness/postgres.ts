// Throwaway PostgreSQL server for tests: a fresh cluster in a temp dir, on a free
// loopback port, tuned for speed (no fsync), removed again by stop().
import { execFile } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { appendFile, chown, mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

export interface PostgresServer {
  /** Superuser URL of the `postgres` database, e.g. postgres://postgres@127.0.0.1:54321/postgres */
  url: string;
  /** Stops the server (immediate mode) and removes its temp dir. Safe to call twice. */
  stop(): Promise<void>;
  /**
   * Stops the server (fast mode: sessions are cut, as in a restart or failover), waits `downMs`,
   * and starts it again on the same port and data. For fault tests on a server of their own.
   */
  restart(options?: { downMs?: number }): Promise<void>;
}

/** Thrown when no PostgreSQL server binaries (initdb, pg_ctl, postgres) can be found. */
export class PostgresBinariesMissingError extends Error {
  constructor() {
    super(
      'PostgreSQL server binaries (initdb, pg_ctl, postgres) not found: neither `pg_config --bindir` ' +
        "nor /usr/lib/postgresql/*/bin has them. Install Debian's `postgresql` package " +
        '(apt-get install -y --no-install-recommends postgresql), or run `bash scripts/test-all.sh`, ' +
        'which installs it; or set SWITCHYARD_TEST_SKIP_PG=1 to skip the PostgreSQL suites.',
    );
    this.name = 'PostgresBinariesMissingError';
  }
}

interface RunResult {
  stdout: string;
  stderr: string;
}

function run(file: string, args: readonly string[], cwd: string): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    execFile(file, args, { cwd, timeout: 120_000, maxBuffer: 16 * 1024 * 1024 }, (err, stdout, stderr) => {
      if (err) {
        reject(new Error(`${file} ${args.join(' ')} failed: ${err.message}\n${stdout}\n${stderr}`));
        return;
      }
      resolve({ stdout, stderr });
    });
  });
}

function hasServerBinaries(dir: string): boolean {
  return ['initdb', 'pg_ctl', 'postgres'].every((b) => existsSync(join(dir, b)));
}

/** Finds the directory holding initdb/pg_ctl/postgres, or null. */
export async function findPostgresBinDir(): Promise<string | null> {
  const fromEnv = process.env['SWITCHYARD_PG_BINDIR'];
  if (fromEnv && hasServerBinaries(fromEnv)) return fromEnv;
  try {
    const { stdout } = await run('pg_config', ['--bindir'], tmpdir());
    const dir = stdout.trim();
    if (dir && hasServerBinaries(dir)) return dir;
  } catch {
    // no pg_config on PATH: fall through to the Debian layout
  }
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return null;
  const versions = readdirSync(root)
    .filter((v) => /^\d+(\.\d+)?$/.test(v))
    .sort((a, b) => Number.parseFloat(b) - Number.parseFloat(a));
  for (const v of versions) {
    const dir = join(root, v, 'bin');
    if (hasServerBinaries(dir)) return dir;
  }
  return null;
}

/** Finds a free TCP port on 127.0.0.1 by binding port 0 and releasing it. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.unref();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      const port = typeof addr === 'object' && addr !== null ? addr.port : 0;
      srv.close(() => (port > 0 ? resolve(port) : reject(new Error('could not read back a free port'))));
    });
  });
}

function isRoot(): boolean {
  return typeof process.getuid === 'function' && process.getuid() === 0;
}

function shellQuote(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

interface PgUser {
  uid: number;
  gid: number;
}

async function lookupPostgresUser(): Promise<PgUser> {
  const passwd = await readFile('/etc/passwd', 'utf8').catch(() => '');
  for (const line of passwd.split('\n')) {
    const parts = line.split(':');
    if (parts[0] === 'postgres' && parts[2] !== undefined && parts[3] !== undefined) {
      return { uid: Number(parts[2]), gid: Number(parts[3]) };
    }
  }
  throw new Error(
    'running as root, but there is no `postgres` OS user to run PostgreSQL as ' +
      "(Debian's postgresql package creates it).",
  );
}

/** Runs a PostgreSQL binary, as the `postgres` OS user when we are root (PostgreSQL refuses root). */
function runPg(binDir: string, bin: string, args: readonly string[], cwd: string): Promise<RunResult> {
  const file = join(binDir, bin);
  if (!isRoot()) return run(file, args, cwd);
  if (existsSync('/usr/sbin/runuser') || existsSync('/sbin/runuser') || existsSync('/usr/bin/runuser')) {
    return run('runuser', ['-u', 'postgres', '--', file, ...args], cwd);
  }
  const cmd = [file, ...args].map(shellQuote).join(' ');
  return run('su', ['postgres', '-s', '/bin/sh', '-c', cmd], cwd);
}

/** Picks a temp base that the `postgres` user can traverse (os.tmpdir() may be private to root). */
function tempBase(): string {
  const base = tmpdir();
  if (!isRoot()) return base;
  try {
    if ((statSync(base).mode & 0o001) !== 0) return base;
  } catch {
    // fall back below
  }
  return '/tmp';
}

async function waitUntilReady(url: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown = null;
  while (Date.now() < deadline) {
    const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
    try {
      await client.connect();
      await client.query('select 1');
      await client.end();
      return;
    } catch (err) {
      last = err;
      await client.end().catch(() => undefined);
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  throw new Error(`PostgreSQL at ${url} not ready after ${timeoutMs} ms: ${String(last)}`);
}

const SETTINGS = [
  "listen_addresses = '127.0.0.1'",
  'fsync = off',
  'synchronous_commit = off',
  'full_page_writes = off',
  "shared_buffers = '32MB'",
  'max_connections = 200',
  "log_min_messages = 'warning'",
  "dynamic_shared_memory_type = 'mmap'",
];

/** Starts a throwaway PostgreSQL server. Throws PostgresBinariesMissingError when none is installed. */
export async function startPostgres(): Promise<PostgresServer> {
  const binDir = await findPostgresBinDir();
  if (binDir === null) throw new PostgresBinariesMissingError();

  const dir = await mkdtemp(join(tempBase(), 'switchyard-pg-'));
  const dataDir = join(dir, 'data');
  const logFile = join(dir, 'server.log');
  let stopped = false;
  let started = false;

  const stop = async (): Promise<void> => {
    if (stopped) return;
    stopped = true;
    if (started) {
      await runPg(binDir, 'pg_ctl', ['stop', '-D', dataDir, '-m', 'immediate', '-w', '-t', '30'], dir).catch(
        () => undefined,
      );
    }
    await rm(dir, { recursive: true, force: true });
  };

  try {
    if (isRoot()) {
      const user = await lookupPostgresUser();
      await chown(dir, user.uid, user.gid);
    }
    await runPg(
      binDir,
      'initdb',
      ['-D', dataDir, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--locale=C', '--no-sync', '--no-instructions'],
      dir,
    );
    await appendFile(join(dataDir, 'postgresql.conf'), `\n# switchyard test harness\n${SETTINGS.join('\n')}\n`);

    // The port is free when we look, but another process may take it before postgres binds: retry.
    let lastErr: unknown = null;
    for (let attempt = 0; attempt < 5; attempt++) {
      const port = await freePort();
      const opts = `-p ${port} -k ${dir}`;
      try {
        await runPg(binDir, 'pg_ctl', ['start', '-D', dataDir, '-l', logFile, '-w', '-t', '60', '-o', opts], dir);
        started = true;
        const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
        await waitUntilReady(url, 30_000);
        const restart = async (options: { downMs?: number } = {}): Promise<void> => {
          if (stopped) throw new Error('PostgreSQL was stopped for good');
          await runPg(binDir, 'pg_ctl', ['stop', '-D', dataDir, '-m', 'fast', '-w', '-t', '30'], dir);
          await new Promise((resolve) => setTimeout(resolve, options.downMs ?? 0));
          await runPg(binDir, 'pg_ctl', ['start', '-D', dataDir, '-l', logFile, '-w', '-t', '60', '-o', opts], dir);
          await waitUntilReady(url, 30_000);
        };
        return { url, stop, restart };
      } catch (err) {
        lastErr = err;
        const log = await readFile(logFile, 'utf8').catch(() => '');
        if (started || !/could not (bind|create listen)/i.test(log)) throw err;
      }
    }
    throw lastErr instanceof Error ? lastErr : new Error(String(lastErr));
  } catch (err) {
    const log = await readFile(logFile, 'utf8').catch(() => '');
    await stop();
    const msg = err instanceof Error ? err.message : String(err);
    throw new Error(`could not start PostgreSQL: ${msg}${log ? `\n--- server log ---\n${log}` : ''}`, { cause: err });
  }
}

const DB_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

function withDatabase(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

async function adminQuery(adminUrl: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/** Creates database `name` (lowercase letters, digits, `_`) and returns its URL. */
export async function createDatabase(adminUrl: string, name: string): Promise<string> {
  if (!DB_NAME.test(name)) throw new Error(`invalid test database name: ${name}`);
  await adminQuery(adminUrl, `CREATE DATABASE "${name}"`);
  return withDatabase(adminUrl, name);
}

/** Drops database `name` if it exists, disconnecting any sessions still in it. */
export async function dropDatabase(adminUrl: string, name: string): Promise<void> {
  if (!DB_NAME.test(name)) throw new Error(`invalid test database name: ${name}`);
  await adminQuery(adminUrl, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
}
