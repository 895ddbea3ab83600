import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { appendFileSync, existsSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createMeter } from '../../src/domain/accounting/meter.js';
import type { GenerationRecord, LedgerJournal, LedgerRepository } from '../../src/domain/accounting/types.js';
import { systemClock } from '../../src/domain/common/clock.js';
import { openStore } from '../../src/store/index.js';
import { FileLedgerJournal, journalDirectory, replayLedgerJournals } from '../../src/store/ledger-journal/index.js';
import { segmentName } from '../../src/store/ledger-journal/files.js';
import type { Store } from '../../src/store/store.js';
import { generation } from '../accounting/fixtures.js';
import { dialects, testDatabase, type TestDatabase } from '../support/server.js';

const HOST = 'journal-test';
const near = (a: number, b: number) => Math.abs(a - b) < 1e-9;

/** A pid that no process has any more: a child's, after it exited. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '0'], { stdio: 'ignore' });
  const pid = child.pid;
  await once(child, 'exit');
  assert.ok(pid !== undefined);
  return pid;
}

/** Writes `records` as a segment of `owner`, as a journal that was killed leaves it. */
function segmentOf(
  dir: string,
  owner: { pid: number; instance: string; host?: string },
  records: readonly GenerationRecord[],
): string {
  const path = join(dir, segmentName({ host: owner.host ?? HOST, pid: owner.pid, instance: owner.instance }, 0));
  writeFileSync(path, records.map((g) => `${JSON.stringify({ t: Date.now(), g })}\n`).join(''));
  return path;
}

for (const dialect of dialects()) {
  describe(`ledger journal replay (${dialect})`, () => {
    let db: TestDatabase;
    let store: Store;
    let dir: string;
    let keyN = 0;

    before(async () => {
      db = await testDatabase(dialect);
      store = openStore(db.url);
      await store.migrate();
      dir = mkdtempSync(join(tmpdir(), 'sy-journal-test-'));
    });
    after(async () => {
      await store.close();
      await db.dispose();
      rmSync(dir, { recursive: true, force: true });
    });

    /** `n` generations of a new key, each costing 0.01. */
    const records = (n: number) => {
      const keyHash = `${++keyN}`.padStart(64, 'k');
      return Array.from({ length: n }, () => generation({ keyHash, costUsd: 0.01 }));
    };
    const lifetime = async (keyHash: string) =>
      (await store.ledger.usageFor([keyHash], ['lifetime'])).get(keyHash)?.get('lifetime')?.amountUsd ?? 0;
    const replay = (ledger: Pick<LedgerRepository, 'writeBatch'> = store.ledger) =>
      replayLedgerJournals({ dir, ledger, host: HOST, pid: process.pid });

    it('a torn last line (the write the kill cut short) is skipped; the whole records are charged', async () => {
      const gens = records(3);
      const path = segmentOf(dir, { pid: await deadPid(), instance: 'aa01' }, gens);
      appendFileSync(path, '{"t":1,"g":{"id":"gen-torn","keyHash":"');
      const result = await replay();
      assert.deepEqual(
        { files: result.files, records: result.records, unreadable: result.unreadable },
        {
          files: 1,
          records: 3,
          unreadable: 1,
        },
      );
      assert.equal(existsSync(path), false);
      for (const g of gens) assert.ok(await store.ledger.findGeneration(g.id));
      assert.ok(near(await lifetime(gens[0]?.keyHash ?? ''), 0.03));
    });

    it('a replay interrupted part-way, then run again, charges every record once', async () => {
      // More than one replay batch (200), and 10 already written by the meter before the crash.
      const gens = records(250);
      await store.ledger.writeBatch(gens.slice(0, 10), []);
      const path = segmentOf(dir, { pid: await deadPid(), instance: 'aa02' }, gens);
      let batches = 0;
      const failing: Pick<LedgerRepository, 'writeBatch'> = {
        writeBatch: async (g, d) => {
          if (++batches === 2) throw new Error('database went away');
          await store.ledger.writeBatch(g, d);
        },
      };
      await assert.rejects(replay(failing), /database went away/);
      assert.equal(existsSync(path), true, 'kept for the next start');
      const again = await replay();
      assert.equal(again.records, 250);
      assert.equal(existsSync(path), false);
      // The 10 the meter wrote had no spend rows; the replay adds none for them (rows it did not insert).
      assert.ok(near(await lifetime(gens[0]?.keyHash ?? ''), 2.4), `${await lifetime(gens[0]?.keyHash ?? '')}`);
    });

    it('two replicas replaying the same dead segment at once charge it once', async () => {
      const gens = records(50);
      segmentOf(dir, { pid: await deadPid(), instance: 'aa03' }, gens);
      await Promise.all([replay(), replay()]);
      assert.ok(near(await lifetime(gens[0]?.keyHash ?? ''), 0.5));
    });

    it("a live process's segment, this process's open journal and another host's are left alone", async () => {
      const live = segmentOf(dir, { pid: process.ppid, instance: 'bb01' }, records(1));
      const otherHost = segmentOf(dir, { pid: await deadPid(), instance: 'bb02', host: 'elsewhere' }, records(1));
      const mine = new FileLedgerJournal({ dir, host: HOST, pid: process.pid });
      const own = records(1)[0];
      assert.ok(own);
      mine.append(own, Date.now());
      const result = await replay();
      assert.equal(result.files, 0);
      assert.equal(result.skipped.length, 3, result.skipped.join(', '));
      assert.ok(existsSync(live) && existsSync(otherHost));
      assert.equal(await store.ledger.findGeneration(own.id), null);
      // This pid's journal that is closed uncleanly (an earlier server of this process) is replayed.
      mine.close(false);
      const later = await replay();
      assert.equal(later.files, 1);
      assert.ok(await store.ledger.findGeneration(own.id));
      rmSync(live);
      rmSync(otherHost);
    });

    it('the meter: a journal that throws is logged, the call still written; committed records leave the journal', async () => {
      const logged: string[] = [];
      const broken: LedgerJournal = {
        append: () => {
          throw new Error('ENOSPC');
        },
        committed: () => undefined,
        sync: () => undefined,
        close: () => undefined,
      };
      const gens = records(2);
      const meter = createMeter({
        ledger: store.ledger,
        clock: systemClock,
        journal: broken,
        log: (m) => logged.push(m),
      });
      for (const g of gens) meter.settle({ accounts: [], amountUsd: 0 }, g);
      await meter.close();
      assert.equal(logged.filter((m) => m.includes('journal append failed')).length, 1, logged.join('\n'));
      for (const g of gens) assert.ok(await store.ledger.findGeneration(g.id));

      const jdir = mkdtempSync(join(tmpdir(), 'sy-journal-meter-'));
      const journal = new FileLedgerJournal({ dir: join(jdir, 'j'), host: HOST, pid: process.pid });
      const writing = createMeter({ ledger: store.ledger, clock: systemClock, journal, flushIntervalMs: 60_000 });
      for (const g of records(3)) writing.settle({ accounts: [], amountUsd: 0 }, g);
      const [segment] = readdirSync(join(jdir, 'j'));
      assert.ok(statSync(join(jdir, 'j', segment ?? '')).size > 0, 'appended at settle');
      await writing.flush();
      assert.equal(statSync(join(jdir, 'j', segment ?? '')).size, 0, 'emptied once committed');
      await writing.close();
      assert.equal(existsSync(join(jdir, 'j')), false);
      rmSync(jdir, { recursive: true, force: true });
    });

    it('a clean close removes the segments and the directory; a committed segment is emptied', async () => {
      const own = mkdtempSync(join(tmpdir(), 'sy-journal-own-'));
      const jdir = join(own, 'j');
      const journal = new FileLedgerJournal({ dir: jdir, host: HOST, pid: process.pid, rotateBytes: 2000 });
      const marks = records(20).map((g) => journal.append(g, Date.now()));
      assert.ok(readdirSync(jdir).length > 1, 'rotated past 2000 bytes');
      journal.committed(marks);
      const left = readdirSync(jdir);
      assert.equal(left.length, 1, 'only the active segment');
      assert.equal(statSync(join(jdir, left[0] ?? '')).size, 0, 'emptied');
      journal.close(true);
      assert.equal(existsSync(jdir), false);
      rmSync(own, { recursive: true, force: true });
    });
  });
}

describe('ledger journal directory', () => {
  it('is one per database, never names credentials', () => {
    const a = journalDirectory('postgres://u:secret@db:5432/one', '/j');
    const b = journalDirectory('postgres://u:other@db:5432/two', '/j');
    assert.notEqual(a, b);
    assert.equal(a, journalDirectory('postgres://v:x@db/one', '/j'), 'same database, other user');
    assert.ok(a !== null && !a.includes('secret'));
    assert.notEqual(journalDirectory('sqlite:/d/a.db', null), journalDirectory('sqlite:/d/b.db', null));
    assert.equal(journalDirectory('sqlite::memory:', null), null);
  });
});
