import assert from 'node:assert/strict';
import { appendFileSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, it } from 'node:test';
import type { GenerationRecord } from '../../src/domain/accounting/types.js';
import { openStore } from '../../src/store/index.js';
import { FileLedgerJournal, replayLedgerJournals } from '../../src/store/ledger-journal/index.js';
import { decodeRecord, encodeRecord } from '../../src/store/ledger-journal/record.js';
import type { Store } from '../../src/store/store.js';
import { generation } from '../accounting/fixtures.js';
import { dialects, testDatabase, type TestDatabase } from '../support/server.js';

const HOST = 'journal-format-test';

const refused = (): GenerationRecord =>
  generation({
    costUsd: 0,
    promptCostUsd: 0,
    completionCostUsd: 0,
    userAgent: 'agent "quoted" \u00e9\u4e2d',
    flags: ['prompt_injection'],
    attempts: [
      { provider: 'openai', model: 'gpt-4o-mini', status: 503 },
      { provider: 'azure', model: 'gpt-4o-mini', status: null },
    ],
    refusal: { status: 403, code: 'guardrail', message: 'blocked', details: { rule: 'r1', ids: ['a', 'b'] }, count: 2 },
  });

/** Descriptors of this process that point into `dir` (a retired segment still open would show here). */
function openIn(dir: string): string[] {
  const out: string[] = [];
  for (const fd of readdirSync('/proc/self/fd')) {
    try {
      const target = readlinkSync(`/proc/self/fd/${fd}`);
      if (target.startsWith(dir)) out.push(target);
    } catch {
      // Closed meanwhile (readdir's own descriptor).
    }
  }
  return out;
}

describe('ledger journal record', () => {
  it('a line reads back as the record that was settled, its settle time and every field', () => {
    for (const g of [
      generation({ streamed: true, presetId: 'p1', presetVersion: 3, origin: 'https://a.example' }),
      refused(),
    ]) {
      const line = encodeRecord(g, 1_764_000_000_123);
      assert.ok(line.endsWith('\n') && !line.slice(0, -1).includes('\n'), 'one line');
      const back = decodeRecord(line.slice(0, -1));
      assert.ok(back !== null);
      assert.deepEqual(back.generation, g);
      assert.equal(back.settledAt.getTime(), 1_764_000_000_123);
    }
  });

  it('the earlier keyed format still reads; torn and foreign lines do not', () => {
    const g = generation();
    const old = decodeRecord(JSON.stringify({ t: 5, g }));
    assert.deepEqual(old?.generation, g);
    const line = encodeRecord(g, 5).slice(0, -1);
    assert.equal(decodeRecord(line.slice(0, line.length - 7)), null, 'torn');
    const fields = (JSON.parse(line) as unknown[]).slice(2);
    assert.notEqual(decodeRecord(JSON.stringify([2, 5, ...fields])), null, 'the same fields read');
    assert.equal(decodeRecord(JSON.stringify([3, 5, ...fields])), null, 'unknown format');
    assert.equal(decodeRecord(JSON.stringify([2, 5, 'gen-x'])), null, 'too short');
    const bad = [2, 5, ...fields];
    bad[2 + 21] = -1; // costUsd
    assert.equal(decodeRecord(JSON.stringify(bad)), null, 'negative cost');
  });
});

for (const dialect of dialects()) {
  describe(`ledger journal segments and replay (${dialect})`, () => {
    let db: TestDatabase;
    let store: Store;
    let root: string;

    before(async () => {
      db = await testDatabase(dialect);
      store = openStore(db.url);
      await store.migrate();
      root = mkdtempSync(join(tmpdir(), 'sy-journal-format-'));
    });
    after(async () => {
      await store.close();
      await db.dispose();
      rmSync(root, { recursive: true, force: true });
    });

    it('a journal cut off after commits replays exactly what was not committed, both formats, each once', async () => {
      const dir = join(root, 'a');
      const journal = new FileLedgerJournal({ dir, host: HOST, pid: process.pid, instance: 'c0ffee01' });
      const keyHash = 'f'.repeat(64);
      const committed = Array.from({ length: 5 }, () => generation({ keyHash, costUsd: 0.01 }));
      const marks = committed.map((g) => journal.append(g, Date.now()));
      await store.ledger.writeBatch(committed, []);
      journal.committed(marks);
      journal.sync();
      const [name] = readdirSync(dir);
      assert.equal(statSync(join(dir, name ?? '')).size, 0, 'a fresh file under the same name');
      const pending = [refused(), generation({ keyHash, costUsd: 0.02 })];
      for (const g of pending) journal.append(g, Date.now());
      // An older build's line in the same file, as after an upgrade that left a journal behind.
      const legacy = generation({ keyHash, costUsd: 0.04 });
      appendFileSync(join(dir, name ?? ''), `${JSON.stringify({ t: Date.now(), g: legacy })}\n`);
      assert.ok(readFileSync(join(dir, name ?? ''), 'utf8').startsWith('[2,'), 'positional lines');
      // Killed: never closed cleanly (this pid's journal no longer open).
      journal.close(false);

      const result = await replayLedgerJournals({ dir, ledger: store.ledger, host: HOST, pid: process.pid });
      assert.deepEqual(
        { files: result.files, records: result.records, unreadable: result.unreadable },
        {
          files: 1,
          records: 3,
          unreadable: 0,
        },
      );
      for (const g of [...pending, legacy]) assert.deepEqual(await store.ledger.findGeneration(g.id), g);
      const spend = (await store.ledger.usageFor([keyHash], ['lifetime'])).get(keyHash)?.get('lifetime')?.amountUsd;
      assert.ok(spend !== undefined && Math.abs(spend - 0.06) < 1e-9, `charged the replayed ones once: ${spend}`);
    });

    it('committed segments leave the directory at once and their files are closed off the main thread', async () => {
      const dir = join(root, 'b');
      const journal = new FileLedgerJournal({ dir, host: HOST, pid: process.pid, rotateBytes: 1500 });
      for (let round = 0; round < 3; round++) {
        const marks = Array.from({ length: 12 }, () => journal.append(generation(), Date.now()));
        assert.ok(readdirSync(dir).length > 1, 'rotated');
        journal.sync();
        journal.committed(marks);
        assert.equal(readdirSync(dir).length, 1, 'only the active segment is left');
      }
      // The closes run on the thread pool; wait for them (bounded), then nothing but the active one is open.
      for (let i = 0; i < 100 && openIn(dir).length > 1; i++) await sleep(20);
      assert.deepEqual(
        openIn(dir),
        readdirSync(dir).map((n) => join(dir, n)),
      );
      journal.close(true);
      assert.deepEqual(openIn(dir), []);
    });
  });
}
