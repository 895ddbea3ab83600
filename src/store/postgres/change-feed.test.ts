import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import type { ChangeFeedState } from '../../domain/common/changes.js';
import { freshPgDatabase, pgSkipReason, withTimeout, type FreshDatabase } from '../../../test/harness/env.js';
import { PostgresChangeFeed } from './change-feed.js';

/** Resolves when `check` holds, polling every few milliseconds. */
async function until(check: () => boolean, label: string, ms = 5000): Promise<void> {
  await withTimeout(
    (async () => {
      while (!check()) await new Promise((resolve) => setTimeout(resolve, 5));
    })(),
    ms,
    label,
  );
}

describe('PostgreSQL change feed', { skip: pgSkipReason() ?? false }, () => {
  let db: FreshDatabase;
  before(async () => {
    db = await freshPgDatabase('feed');
  });
  after(() => db.drop());

  const feed = (applicationName = 'feed-test') =>
    new PostgresChangeFeed({
      url: db.url,
      applicationName,
      backoffMinMs: 20,
      backoffMaxMs: 200,
      heartbeatMs: 200,
      timeoutMs: 1000,
    });

  /** Cuts a feed's LISTEN connection from the server side, as a restart or a network drop would. */
  async function terminate(applicationName: string): Promise<number> {
    const admin = new pg.Client({ connectionString: db.url });
    await admin.connect();
    try {
      const res = await admin.query(
        'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1 AND datname = current_database()',
        [applicationName],
      );
      return res.rowCount ?? 0;
    } finally {
      await admin.end();
    }
  }

  it('a change published on one replica reaches the others (and itself at once); payload is topic and id only', async () => {
    const a = feed();
    const b = feed();
    await Promise.all([a.start(), b.start()]);
    try {
      assert.equal(a.state(), 'live');
      const seenA: (string | null)[] = [];
      const seenB: (string | null)[] = [];
      a.subscribe('keys', (id) => seenA.push(id));
      b.subscribe('keys', (id) => seenB.push(id));
      b.subscribe('guardrails', () => assert.fail('other topics stay quiet'));
      const sent = a.publish('keys', 'hash-1');
      assert.deepEqual(seenA, ['hash-1'], 'the publisher hears it synchronously');
      await sent;
      await until(() => seenB.includes('hash-1'), 'b hears it');
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });

  it('a dropped connection: subscribers hear "anything changed", the feed reconnects and resends what was published meanwhile', async () => {
    const a = feed('feed-a');
    const b = feed('feed-b');
    const states: ChangeFeedState[] = [];
    let reconnects = 0;
    b.observe({ stateChanged: (s) => states.push(s), reconnected: () => (reconnects += 1) });
    await Promise.all([a.start(), b.start()]);
    try {
      const seenA: (string | null)[] = [];
      const seenB: (string | null)[] = [];
      a.subscribe('keys', (id) => seenA.push(id));
      b.subscribe('keys', (id) => seenB.push(id));
      assert.equal(await terminate('feed-a'), 1);
      await until(() => a.state() === 'down', 'the drop is noticed');
      await a.publish('keys', 'during-outage');
      await until(() => a.state() === 'live', 'a reconnects');
      await until(() => seenB.includes('during-outage'), 'the notification queued while down arrives');
      assert.ok(
        seenA.filter((id) => id === null).length >= 2,
        'a heard "anything changed" when it dropped and when it came back',
      );
      assert.equal(await terminate('feed-b'), 1);
      await until(() => states.length >= 4, 'b drops and comes back');
      assert.deepEqual(states, ['down', 'live', 'down', 'live'], 'observed: before start, connected, dropped, back');
      assert.ok(reconnects >= 1);
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });

  it("while a replica's LISTEN connection is down, its writes still reach the others", async () => {
    const slow = new PostgresChangeFeed({
      url: db.url,
      applicationName: 'feed-slow',
      backoffMinMs: 10_000,
      heartbeatMs: 60_000,
    });
    const b = feed('feed-b2');
    await Promise.all([slow.start(), b.start()]);
    try {
      const seenB: (string | null)[] = [];
      b.subscribe('keys', (id) => seenB.push(id));
      assert.equal(await terminate('feed-slow'), 1);
      await until(() => slow.state() === 'down', 'the drop is noticed');
      await slow.publish('keys', 'sent-while-down');
      await until(() => seenB.includes('sent-while-down'), 'b hears it over a short-lived connection');
      assert.equal(slow.state(), 'down', 'and the slow feed has not reconnected yet');
    } finally {
      await Promise.all([slow.close(), b.close()]);
    }
  });

  // How fast they arrive is measured by bench/change-feed-bench.ts (docs/deploy.md).
  it('a burst of notifications from one replica reaches another each once, in the order sent', async () => {
    const a = feed('feed-ma');
    const b = feed('feed-mb');
    await Promise.all([a.start(), b.start()]);
    try {
      const heard: string[] = [];
      b.subscribe('keys', (id) => {
        if (id !== null && id.startsWith('m')) heard.push(id);
      });
      const sent = Array.from({ length: 100 }, (_, i) => `m${i}`);
      for (const id of sent) await a.publish('keys', id);
      await until(() => heard.length >= sent.length, 'all delivered');
      await new Promise((resolve) => setTimeout(resolve, 50)); // a duplicate would arrive by now
      assert.deepEqual(heard, sent);
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });

  it('a feed that cannot connect is down, retries, and its start() does not hang', async () => {
    const dead = new PostgresChangeFeed({
      url: 'postgres://postgres@127.0.0.1:1/none',
      backoffMinMs: 20,
      timeoutMs: 300,
    });
    await withTimeout(dead.start(), 3000, 'start');
    assert.equal(dead.state(), 'down');
    await withTimeout(dead.publish('keys', 'x'), 1000, 'publish while down');
    await dead.close();
  });
});
