// WAL checkpoints on a worker thread (checkpointer.ts, checkpoint-worker.ts) over real files.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import BetterSqlite3 from 'better-sqlite3';
import { sql } from 'kysely';
import { startCheckpointer } from './checkpointer.js';
import { openSqlite, type SqliteConnection } from './connect.js';

const CLI = fileURLToPath(new URL('../../cli/main.js', import.meta.url));

function tempFile(): { path: string; cleanup(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'switchyard-checkpoint-'));
  return { path: join(dir, 'test.db'), cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

function insertRows(raw: BetterSqlite3.Database, count: number): void {
  raw.exec('CREATE TABLE IF NOT EXISTS t (id INTEGER PRIMARY KEY, body TEXT NOT NULL)');
  const insert = raw.prepare('INSERT INTO t (body) VALUES (?)');
  raw.transaction(() => {
    for (let i = 0; i < count; i++) insert.run('x'.repeat(500));
  })();
}

/** As the store closes: Kysely closes the database it used (it never opened it without a query). */
async function close(conn: SqliteConnection): Promise<void> {
  await sql`SELECT 1`.execute(conn.db);
  await conn.db.destroy();
}

function pragmaNumber(raw: BetterSqlite3.Database, name: string): number {
  return Number(raw.pragma(name, { simple: true }));
}

describe('SQLite WAL checkpoints on a worker thread', () => {
  it('copies the WAL back while the main connection never checkpoints in a commit', async () => {
    const file = tempFile();
    const conn = openSqlite(`sqlite:${file.path}`, { checkpointWorker: { startDelayMs: 0, intervalMs: 60_000 } });
    try {
      const checkpointer = conn.checkpointer;
      assert.ok(checkpointer !== null);
      await checkpointer.startNow();
      assert.equal(pragmaNumber(conn.raw, 'wal_autocheckpoint'), 0);
      insertRows(conn.raw, 10_000);
      const walFrames = statSync(`${file.path}-wal`).size;
      assert.ok(walFrames > 1000 * 4096, 'more than the default 1,000 pages were left in the WAL by the commit');
      const result = await checkpointer.nextCheckpoint();
      assert.equal(result.busy, 0);
      assert.ok(result.log > 1000);
      assert.equal(result.checkpointed, result.log, 'every frame backfilled');
      // Another connection sees a fully backfilled WAL: nothing left to copy.
      const other = new BetterSqlite3(file.path);
      const again = other.pragma('wal_checkpoint(PASSIVE)') as { busy: number; log: number; checkpointed: number }[];
      other.close();
      assert.equal(again[0]?.checkpointed, again[0]?.log);
      // The next commit starts the WAL again from its beginning.
      insertRows(conn.raw, 1);
      const next = await checkpointer.nextCheckpoint();
      assert.ok(next.log < result.log, `WAL restarted (${next.log} frames after ${result.log})`);
      assert.ok(checkpointer.stats().checkpoints >= 2);
      // Asked again with nothing written since, the worker still answers (a caller awaits it).
      const counted = checkpointer.stats().checkpoints;
      const unchanged = await checkpointer.nextCheckpoint();
      assert.equal(unchanged.changed, false);
      assert.equal(unchanged.log, next.log);
      assert.equal(checkpointer.stats().checkpoints, counted, 'an unchanged WAL is not counted as a checkpoint');
    } finally {
      await close(conn);
      file.cleanup();
    }
  });

  it('closing stops the worker and leaves a consistent database without a WAL', async () => {
    const file = tempFile();
    const conn = openSqlite(`sqlite:${file.path}`, { checkpointWorker: { startDelayMs: 0 } });
    const checkpointer = conn.checkpointer;
    assert.ok(checkpointer !== null);
    await checkpointer.startNow();
    insertRows(conn.raw, 1500);
    await close(conn);
    assert.equal(checkpointer.stats().running, false);
    await checkpointer.exited;
    // The worker's connection was the last one: closing it checkpointed everything and removed the WAL.
    assert.equal(existsSync(`${file.path}-wal`), false);
    const check = new BetterSqlite3(file.path, { readonly: true });
    assert.equal(check.pragma('integrity_check', { simple: true }), 'ok');
    assert.equal((check.prepare('SELECT count(*) AS n FROM t').get() as { n: number }).n, 1500);
    check.close();
    file.cleanup();
  });

  it('closing before the worker started needs no worker at all', async () => {
    const file = tempFile();
    const conn = openSqlite(`sqlite:${file.path}`, { checkpointWorker: { startDelayMs: 60_000 } });
    insertRows(conn.raw, 10);
    assert.equal(
      pragmaNumber(conn.raw, 'wal_autocheckpoint'),
      1000,
      'SQLite checkpoints itself until a worker is ready',
    );
    await close(conn);
    await conn.checkpointer?.exited;
    assert.equal(existsSync(`${file.path}-wal`), false);
    file.cleanup();
  });

  it('starts no worker for :memory: or when turned off', async () => {
    const memory = openSqlite('sqlite::memory:');
    assert.equal(memory.checkpointer, null);
    await close(memory);
    const file = tempFile();
    const off = openSqlite(`sqlite:${file.path}`, { checkpointWorker: false });
    assert.equal(off.checkpointer, null);
    assert.equal(pragmaNumber(off.raw, 'wal_autocheckpoint'), 1000);
    await close(off);
    file.cleanup();
  });

  it('a worker that keeps dying is logged, restarted, then replaced by checkpoints in commits', async () => {
    const file = tempFile();
    const raw = new BetterSqlite3(file.path);
    raw.pragma('journal_mode = WAL');
    const logged: string[] = [];
    // The worker opens with fileMustExist: a missing file makes it fail at start every time.
    const checkpointer = startCheckpointer(raw, join(file.path, 'missing.db'), {
      startDelayMs: 0,
      maxRestarts: 1,
      restartDelayMs: 10,
      log: (msg) => logged.push(msg),
    });
    raw.pragma('wal_autocheckpoint = 0');
    // Nothing the checkpointer holds keeps a process alive (its restart timer is unref'd).
    const keepAlive = setInterval(() => undefined, 50);
    await checkpointer.exited;
    clearInterval(keepAlive);
    assert.equal(checkpointer.stats().restarts, 1);
    assert.ok(logged.some((m) => m.includes('starting it again')));
    assert.ok(logged.some((m) => m.includes('main connection from now on')));
    assert.equal(pragmaNumber(raw, 'wal_autocheckpoint'), 1000);
    // Nobody can be left waiting for a worker that will never run again.
    await assert.rejects(checkpointer.nextCheckpoint(), /not running/);
    await assert.rejects(checkpointer.startNow(), /not running/);
    raw.close();
    file.cleanup();
  });

  it('another process (the CLI) writes to the file while the worker checkpoints', async () => {
    const file = tempFile();
    const conn = openSqlite(`sqlite:${file.path}`, {
      checkpointWorker: { startDelayMs: 0, intervalMs: 20, minGapMs: 0 },
    });
    try {
      const checkpointer = conn.checkpointer;
      assert.ok(checkpointer !== null);
      await checkpointer.startNow();
      const env = { ...process.env, SWITCHYARD_DATABASE_URL: `sqlite:${file.path}`, SWITCHYARD_MANAGEMENT_KEY: '' };
      const child = spawn(process.execPath, [CLI, 'members', 'add', '--email', 'ops@example.com', '--name', 'Ops'], {
        env,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let output = '';
      child.stdout.on('data', (d: Buffer) => (output += d.toString()));
      child.stderr.on('data', (d: Buffer) => (output += d.toString()));
      const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
      let code: number | null | undefined;
      void exited.then((c) => (code = c));
      while (code === undefined) {
        insertRows(conn.raw, 50);
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      assert.equal(code, 0, output);
      const member = conn.raw.prepare('SELECT count(*) AS n FROM members WHERE email = ?').get('ops@example.com') as {
        n: number;
      };
      assert.equal(member.n, 1);
      await checkpointer.nextCheckpoint();
      assert.equal(conn.raw.pragma('integrity_check', { simple: true }), 'ok');
    } finally {
      await close(conn);
      file.cleanup();
    }
  });
});
