// `switchyard migrate` run by several processes at once (several replicas starting together) on
// one database: every run succeeds and each migration is applied exactly once.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import BetterSqlite3 from 'better-sqlite3';
import pg from 'pg';
import { freshPgDatabase, pgSkipReason, tempSqlitePath } from '../harness/env.js';

const CLI = fileURLToPath(new URL('../../src/cli/main.js', import.meta.url));
const RUNS = 3;

function migrate(databaseUrl: string): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, 'migrate'], {
      env: { PATH: process.env.PATH ?? '', SWITCHYARD_DATABASE_URL: databaseUrl },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('exit', (code) => resolve({ code, out, err }));
  });
}

/** Every run exits 0, and the migrations were applied by the runs together exactly once. */
function checkRuns(runs: { code: number | null; out: string; err: string }[], recorded: string[]): void {
  for (const r of runs) assert.equal(r.code, 0, `${r.out}\n${r.err}`);
  const applied = runs.flatMap((r) => /^applied: (.*)$/m.exec(r.out)?.[1]?.split(', ') ?? []);
  assert.deepEqual([...applied].sort(), [...recorded].sort(), 'each migration applied by exactly one run');
  assert.equal(new Set(recorded).size, recorded.length);
  assert.ok(recorded.length >= 6);
}

describe('switchyard migrate from several processes at once', () => {
  it('SQLite: the runs queue on the file and all succeed', async () => {
    const file = tempSqlitePath();
    try {
      const runs = await Promise.all(Array.from({ length: RUNS }, () => migrate(`sqlite:${file.path}`)));
      const db = new BetterSqlite3(file.path, { readonly: true });
      const rows = db.prepare('SELECT name FROM kysely_migration').all() as { name: string }[];
      db.close();
      checkRuns(
        runs,
        rows.map((r) => r.name),
      );
    } finally {
      file.cleanup();
    }
  });

  it(
    'PostgreSQL: the advisory lock serialises the runs and all succeed',
    { skip: pgSkipReason() ?? false },
    async () => {
      const target = await freshPgDatabase('migrate_lock');
      try {
        const runs = await Promise.all(Array.from({ length: RUNS }, () => migrate(target.url)));
        const client = new pg.Client({ connectionString: target.url });
        await client.connect();
        const rows = await client.query<{ name: string }>('SELECT name FROM kysely_migration');
        await client.end();
        checkRuns(
          runs,
          rows.rows.map((r) => r.name),
        );
      } finally {
        await target.drop();
      }
    },
  );
});
