// Kysely's statements kept prepared by SQL text (connect.ts, `preparedBySql`).
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import BetterSqlite3 from 'better-sqlite3';
import { sql } from 'kysely';
import { openSqlite, preparedBySql } from './connect.js';

describe('preparedBySql', () => {
  it('gives the same statement for the same text, and keeps at most `size`, oldest out first', () => {
    const raw = new BetterSqlite3(':memory:');
    try {
      const prepare = preparedBySql(raw, 2);
      const one = prepare('SELECT 1');
      assert.equal(prepare('SELECT 1'), one);
      const two = prepare('SELECT 2');
      assert.notEqual(two, one);
      prepare('SELECT 3'); // the third text pushes out the first
      assert.equal(prepare('SELECT 2'), two);
      assert.notEqual(prepare('SELECT 1'), one);
    } finally {
      raw.close();
    }
  });

  it('prepares every text anew at size 0, and keeps no statement that failed to prepare', () => {
    const raw = new BetterSqlite3(':memory:');
    try {
      const anew = preparedBySql(raw, 0);
      assert.notEqual(anew('SELECT 1'), anew('SELECT 1'));
      const kept = preparedBySql(raw, 4);
      assert.throws(() => kept('SELECT * FROM later'), /no such table/);
      raw.exec('CREATE TABLE later (a INTEGER)');
      assert.deepEqual(kept('SELECT * FROM later').all(), []);
    } finally {
      raw.close();
    }
  });

  it('a kept statement reads the table as it is after a schema change (Kysely over a file)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'switchyard-statements-'));
    const conn = openSqlite(`sqlite:${join(dir, 'test.db')}`, { checkpointWorker: false });
    try {
      await sql`CREATE TABLE t (a INTEGER)`.execute(conn.db);
      await sql`INSERT INTO t (a) VALUES (${1})`.execute(conn.db);
      const read = async () => (await sql<Record<string, unknown>>`SELECT * FROM t`.execute(conn.db)).rows;
      assert.deepEqual(await read(), [{ a: 1 }]);
      await sql`ALTER TABLE t ADD COLUMN b TEXT NOT NULL DEFAULT 'x'`.execute(conn.db);
      assert.deepEqual(await read(), [{ a: 1, b: 'x' }]);
      await sql`DROP TABLE t`.execute(conn.db);
      await sql`CREATE TABLE t (c TEXT)`.execute(conn.db);
      await sql`INSERT INTO t (c) VALUES (${'y'})`.execute(conn.db);
      assert.deepEqual(await read(), [{ c: 'y' }]);
    } finally {
      await conn.db.destroy();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
