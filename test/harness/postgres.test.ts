// Self-test of the harness: the shared server answers, and fresh databases come and go.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import pg from 'pg';
import { freshPgDatabase, pgUrlOrSkip, withTimeout } from './env.js';

test('shared PostgreSQL answers select 1', async (t) => {
  const url = pgUrlOrSkip(t);
  if (url === null) return;
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const res = await client.query<{ one: number }>('select 1 as one');
    assert.equal(res.rows[0]?.one, 1);
  } finally {
    await client.end();
  }
});

test('freshPgDatabase creates an isolated database and drops it', async (t) => {
  const adminUrl = pgUrlOrSkip(t);
  if (adminUrl === null) return;
  const db = await withTimeout(freshPgDatabase('harness'), 30_000, 'create database');
  const name = new URL(db.url).pathname.slice(1);
  assert.match(name, /^harness_/);
  const client = new pg.Client({ connectionString: db.url });
  await client.connect();
  try {
    const res = await client.query<{ db: string; one: number }>('select current_database() as db, 1 as one');
    assert.equal(res.rows[0]?.db, name);
    assert.equal(res.rows[0]?.one, 1);
  } finally {
    await client.end();
  }
  await db.drop();

  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    const res = await admin.query('select 1 from pg_database where datname = $1', [name]);
    assert.equal(res.rowCount, 0);
  } finally {
    await admin.end();
  }
});
