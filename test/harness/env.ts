// Helpers for test files: the shared PostgreSQL server started by run-tests, temp SQLite
// files, and a timeout wrapper. Keep this small.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestContext } from 'node:test';
import { createDatabase, dropDatabase } from './postgres.js';

export const PG_URL_ENV = 'SWITCHYARD_TEST_PG_URL';
export const SKIP_PG_ENV = 'SWITCHYARD_TEST_SKIP_PG';

/** URL of the shared test PostgreSQL server (superuser, `postgres` db), or null when there is none. */
export function getTestPgUrl(): string | null {
  const url = process.env[PG_URL_ENV];
  return url !== undefined && url !== '' ? url : null;
}

/** Why PostgreSQL tests can't run here, or null when they can. Usable as `{ skip: pgSkipReason() ?? false }`. */
export function pgSkipReason(): string | null {
  if (getTestPgUrl() !== null) return null;
  if (process.env[SKIP_PG_ENV] === '1') return `PostgreSQL suites skipped (${SKIP_PG_ENV}=1)`;
  return `no ${PG_URL_ENV}: run through \`npm test\` (dist/test/harness/run-tests.js), which starts PostgreSQL`;
}

/** Returns the shared PostgreSQL URL, or marks the test skipped and returns null. */
export function pgUrlOrSkip(t: TestContext): string | null {
  const url = getTestPgUrl();
  if (url === null) t.skip(pgSkipReason() ?? 'no PostgreSQL');
  return url;
}

export interface FreshDatabase {
  url: string;
  drop(): Promise<void>;
}

let dbCounter = 0;

/** Creates a uniquely named database on the shared test server. Throws when there is no server. */
export async function freshPgDatabase(prefix = 't'): Promise<FreshDatabase> {
  const adminUrl = getTestPgUrl();
  if (adminUrl === null) throw new Error(pgSkipReason() ?? 'no PostgreSQL');
  dbCounter += 1;
  const rand = Math.random().toString(36).slice(2, 8);
  const safePrefix = prefix
    .toLowerCase()
    .replace(/[^a-z0-9_]/g, '_')
    .slice(0, 20);
  const name = `${safePrefix}_${process.pid}_${dbCounter}_${rand}`;
  const url = await createDatabase(adminUrl, name);
  return { url, drop: () => dropDatabase(adminUrl, name) };
}

export interface TempSqlite {
  path: string;
  cleanup(): void;
}

/** A path for a SQLite file in a fresh temp dir; cleanup() removes the dir (and -wal/-shm files). */
export function tempSqlitePath(name = 'test.db'): TempSqlite {
  const dir = mkdtempSync(join(tmpdir(), 'switchyard-sqlite-'));
  return { path: join(dir, name), cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Rejects when `promise` hasn't settled within `ms` milliseconds. */
export function withTimeout<T>(promise: Promise<T>, ms: number, label = 'operation'): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${label} timed out after ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
