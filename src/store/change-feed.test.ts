import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import BetterSqlite3 from 'better-sqlite3';
import { tempSqlitePath } from '../../test/harness/env.js';
import { LocalChangeFeed } from './change-feed.js';
import { openSqlite } from './sqlite/connect.js';

describe('in-process change feed (SQLite)', () => {
  it('publishing reaches this process at once; a throwing subscriber does not stop the others', async () => {
    const logs: string[] = [];
    const feed = new LocalChangeFeed({ log: (m) => logs.push(m) });
    const seen: (string | null)[] = [];
    feed.subscribe('keys', () => {
      throw new Error('boom');
    });
    const stop = feed.subscribe('keys', (id) => seen.push(id));
    feed.subscribe('presets', () => assert.fail('another topic'));
    await feed.publish('keys', 'k1');
    stop();
    await feed.publish('keys', 'k2');
    assert.deepEqual(seen, ['k1']);
    assert.equal(logs.length, 2);
    assert.equal(feed.state(), 'live');
  });

  it("another process's write (data_version) reaches every topic as 'anything changed', on refresh() or by the timer", async () => {
    const file = tempSqlitePath();
    const mine = openSqlite(`sqlite:${file.path}`);
    const other = new BetterSqlite3(file.path);
    const feed = new LocalChangeFeed({ externalChangeMarker: () => mine.dataVersion(), pollMs: 10, refreshEveryMs: 0 });
    try {
      const seen: string[] = [];
      feed.subscribe('keys', (id) => seen.push(`keys:${id}`));
      feed.subscribe('guardrails', (id) => seen.push(`guardrails:${id}`));
      feed.refresh();
      assert.deepEqual(seen, [], 'nothing changed yet');
      other.exec('CREATE TABLE t (x INTEGER)');
      feed.refresh();
      assert.deepEqual(seen, ['keys:null', 'guardrails:null']);
      await feed.start();
      other.exec('INSERT INTO t VALUES (1)');
      const deadline = Date.now() + 2000;
      while (seen.length < 4 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
      assert.equal(seen.length, 4, 'the timer noticed without a refresh() call');
    } finally {
      await feed.close();
      other.close();
      await mine.db.destroy();
      file.cleanup();
    }
  });

  it('refresh() reads the marker at most once per refreshEveryMs, so a burst of authentications costs one read', async () => {
    let reads = 0;
    let version = 1;
    const feed = new LocalChangeFeed({
      externalChangeMarker: () => {
        reads++;
        return version;
      },
      refreshEveryMs: 30,
    });
    const seen: (string | null)[] = [];
    feed.subscribe('keys', (id) => seen.push(id));
    const before = reads;
    version = 2;
    feed.refresh();
    for (let i = 0; i < 100; i++) feed.refresh();
    assert.equal(reads - before, 1, 'one read for the burst');
    assert.deepEqual(seen, [null], 'the change was seen by the first refresh');
    version = 3;
    feed.refresh();
    assert.deepEqual(seen, [null], 'within the interval the marker is not read again');
    await new Promise((resolve) => setTimeout(resolve, 40));
    feed.refresh();
    assert.deepEqual(seen, [null, null], 'after the interval the next refresh() reads it');
  });
});
