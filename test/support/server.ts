import { tmpdir } from 'node:os';
import { generateToken } from '../../src/domain/keys/tokens.js';
import { loadServerConfig } from '../../src/config/env.js';
import type { Clock } from '../../src/domain/common/clock.js';
import { startServer, type RunningServer, type StartOptions } from '../../src/server.js';
import { freshPgDatabase, getTestPgUrl, tempSqlitePath } from '../harness/env.js';

export type TestDialect = 'sqlite' | 'postgres';

/** The dialects a suite runs on: both where the harness started PostgreSQL, else SQLite only. */
export function dialects(): TestDialect[] {
  return getTestPgUrl() === null ? ['sqlite'] : ['sqlite', 'postgres'];
}

export interface TestDatabase {
  url: string;
  dispose(): Promise<void>;
}

export async function testDatabase(dialect: TestDialect): Promise<TestDatabase> {
  if (dialect === 'sqlite') {
    const file = tempSqlitePath();
    return { url: `sqlite:${file.path}`, dispose: () => Promise.resolve(file.cleanup()) };
  }
  const db = await freshPgDatabase('api');
  return { url: db.url, dispose: () => db.drop() };
}

export interface TestServer {
  url: string;
  api: string;
  managementToken: string;
  running: RunningServer;
  db: TestDatabase;
  /** Stops the server; keeps the database so a restart can reuse it. */
  stop(): Promise<void>;
  /** Stops the server and drops the database. */
  close(): Promise<void>;
}

export interface TestServerOptions {
  dialect: TestDialect;
  db?: TestDatabase;
  managementToken?: string;
  env?: Record<string, string>;
  clock?: Clock;
  extensions?: StartOptions['extensions'];
  /** The server's pino options (default: no logging). */
  logger?: StartOptions['logger'];
}

/** Starts the real server on a loopback port over a fresh database. */
export async function startTestServer(options: TestServerOptions): Promise<TestServer> {
  const db = options.db ?? (await testDatabase(options.dialect));
  const managementToken = options.managementToken ?? generateToken();
  const config = loadServerConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    SWITCHYARD_DATABASE_URL: db.url,
    SWITCHYARD_MANAGEMENT_KEY: managementToken,
    // The ledger journal sits beside a SQLite file; PostgreSQL's would default to ./data (the checkout).
    ...(db.url.startsWith('sqlite:') ? {} : { SWITCHYARD_LEDGER_JOURNAL_DIR: tmpdir() }),
    ...options.env,
  });
  const running = await startServer({
    config,
    clock: options.clock,
    logger: options.logger ?? false,
    extensions: options.extensions,
  });
  return {
    url: running.url,
    api: `${running.url}/api/v1`,
    managementToken,
    running,
    db,
    stop: () => running.close(),
    close: async () => {
      await running.close();
      await db.dispose();
    },
  };
}

export interface JsonResponse<T = Record<string, unknown>> {
  status: number;
  body: T;
  headers: Headers;
}

/** Real HTTP against the test server; bodies are sent as JSON unless `raw` is given. */
export async function call<T = Record<string, unknown>>(
  server: { api: string },
  method: string,
  path: string,
  options: { token?: string | null; body?: unknown; raw?: string; headers?: Record<string, string> } = {},
): Promise<JsonResponse<T>> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token !== null && options.token !== undefined) headers.authorization = `Bearer ${options.token}`;
  let body: string | undefined;
  if (options.raw !== undefined) body = options.raw;
  else if (options.body !== undefined) body = JSON.stringify(options.body);
  if (body !== undefined && headers['content-type'] === undefined) headers['content-type'] = 'application/json';
  const response = await fetch(`${server.api}${path}`, { method, headers, body });
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = text === '' ? null : JSON.parse(text);
  } catch {
    // Not JSON: tests assert on the raw text.
  }
  return { status: response.status, body: parsed as T, headers: response.headers };
}
