// Several Switchyard replicas as separate Node processes on one PostgreSQL of their own (so the
// fault tests may restart it without disturbing other suites), all on 127.0.0.1.
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { generateToken } from '../../src/domain/keys/tokens.js';
import { createDatabase, startPostgres, type PostgresServer } from '../harness/postgres.js';
import { withTimeout } from '../harness/env.js';

const MAIN = fileURLToPath(new URL('../../src/main.js', import.meta.url));

export interface Replica {
  name: string;
  api: string;
  /** Last log lines (JSON from pino), for failure messages. */
  logs: string[];
  /** Last warning and error lines (kept apart: request logs would push them out of `logs`). */
  warnings: string[];
  stop(): Promise<void>;
}

export interface Cluster {
  pg: PostgresServer;
  databaseUrl: string;
  managementToken: string;
  replicas: Replica[];
  close(): Promise<void>;
}

async function healthy(base: string): Promise<void> {
  for (;;) {
    const ok = await fetch(`${base}/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * Hands every log line of a server process (stdout and stderr) to `keep` and resolves with the URL
 * it logged on listening; rejects with `exited(code)` when the process ends first.
 */
export function listeningUrl(
  child: ChildProcess,
  keep: (line: string) => void,
  exited: (code: number | null) => string,
): Promise<string> {
  return new Promise<string>((resolve, reject) => {
    if (child.stdout === null || child.stderr === null) return reject(new Error('no stdio'));
    createInterface({ input: child.stderr }).on('line', keep);
    createInterface({ input: child.stdout }).on('line', (line) => {
      keep(line);
      try {
        const parsed = JSON.parse(line) as { msg?: unknown; url?: unknown };
        if (parsed.msg === 'switchyard listening' && typeof parsed.url === 'string') resolve(parsed.url);
      } catch {
        // not a log line
      }
    });
    child.once('exit', (code) => reject(new Error(exited(code))));
  });
}

/** Starts one replica process and resolves once it logged the URL it listens on (or answers /health). */
export async function startReplica(name: string, env: Record<string, string>): Promise<Replica> {
  const child: ChildProcess = spawn(process.execPath, [MAIN], {
    env: { PATH: process.env.PATH ?? '', PORT: '0', HOST: '127.0.0.1', SWITCHYARD_LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const logs: string[] = [];
  const warnings: string[] = [];
  const keep = (line: string) => {
    logs.push(line);
    if (logs.length > 200) logs.shift();
    if (!line.startsWith('{"level":') || /^\{"level":[4-6]0/.test(line)) {
      warnings.push(line);
      if (warnings.length > 100) warnings.shift();
    }
  };
  const url = listeningUrl(
    child,
    keep,
    (code) => `replica ${name} exited with ${code}:\n${logs.slice(-20).join('\n')}`,
  );
  // With a fixed PORT (e.g. a benchmark at log level warn, which logs no URL), readiness is /health.
  const fixed = env.PORT !== undefined && env.PORT !== '0' ? `http://127.0.0.1:${env.PORT}` : null;
  url.catch(() => undefined);
  const ready = fixed === null ? url : Promise.race([url, healthy(fixed).then(() => fixed)]);
  const base = await withTimeout(ready, 60_000, `replica ${name} start`);
  let stopping: Promise<void> | null = null;
  return {
    name,
    api: `${base}/api/v1`,
    logs,
    warnings,
    stop: () => {
      stopping ??= (async () => {
        if (child.exitCode !== null) return;
        const exited = once(child, 'exit');
        child.kill('SIGTERM');
        await withTimeout(exited, 20_000, `replica ${name} stop`).catch(() => child.kill('SIGKILL'));
      })();
      return stopping;
    },
  };
}

/**
 * A PostgreSQL of its own, one database, and `count` replicas started at once (they migrate
 * together). `envOf(i)` adds per-replica variables (e.g. a fixed PORT).
 */
export async function startCluster(
  count: number,
  env: Record<string, string> = {},
  envOf: (i: number) => Record<string, string> = () => ({}),
): Promise<Cluster> {
  const pg = await startPostgres();
  const replicas: Replica[] = [];
  try {
    const databaseUrl = await createDatabase(pg.url, 'scale');
    const managementToken = generateToken();
    const common = { SWITCHYARD_DATABASE_URL: databaseUrl, SWITCHYARD_MANAGEMENT_KEY: managementToken, ...env };
    const names = Array.from({ length: count }, (_, i) => String.fromCharCode(65 + i));
    const started = await Promise.allSettled(names.map((n, i) => startReplica(n, { ...common, ...envOf(i) })));
    for (const r of started) if (r.status === 'fulfilled') replicas.push(r.value);
    const failed = started.find((r) => r.status === 'rejected');
    if (failed !== undefined && failed.status === 'rejected') throw failed.reason;
    return {
      pg,
      databaseUrl,
      managementToken,
      replicas,
      close: async () => {
        await Promise.all(replicas.map((r) => r.stop()));
        await pg.stop();
      },
    };
  } catch (error) {
    await Promise.all(replicas.map((r) => r.stop()));
    await pg.stop();
    throw error;
  }
}

export interface Reply<T> {
  status: number;
  body: T;
}

/** JSON over HTTP to one replica. */
export async function request<T = Record<string, unknown>>(
  replica: { api: string },
  method: string,
  path: string,
  token: string,
  body?: unknown,
): Promise<Reply<T>> {
  const headers: Record<string, string> = { authorization: `Bearer ${token}` };
  if (body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(`${replica.api}${path}`, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = text === '' ? null : JSON.parse(text);
  } catch {
    // keep the text
  }
  return { status: res.status, body: parsed as T };
}

/** Polls `probe` until it returns true; resolves with the milliseconds it took. */
export async function waitFor(probe: () => Promise<boolean>, timeoutMs: number, label: string): Promise<number> {
  const start = performance.now();
  for (;;) {
    if (await probe()) return performance.now() - start;
    if (performance.now() - start > timeoutMs) throw new Error(`${label}: not within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
}
