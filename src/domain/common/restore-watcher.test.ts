import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { RestoreWatcher } from './restore-watcher.js';

function watcher(markers: (string | null | Error)[]) {
  let restores = 0;
  const logged: string[] = [];
  const w = new RestoreWatcher({
    read: () => {
      const next = markers.length > 1 ? markers.shift() : markers[0];
      return next instanceof Error ? Promise.reject(next) : Promise.resolve(next ?? null);
    },
    onRestore: () => void (restores += 1),
    log: (msg) => void logged.push(msg),
  });
  return { w, restores: () => restores, logged };
}

describe('RestoreWatcher', () => {
  it('reacts only when the marker changes from the one seen at start', async () => {
    const t = watcher([null, null, null, 'r1', 'r1', 'r2']);
    await t.w.check();
    await t.w.check();
    assert.equal(t.restores(), 0, 'other writes leave the marker alone');
    await t.w.check();
    assert.equal(t.restores(), 1);
    await t.w.check();
    assert.equal(t.restores(), 1);
    await t.w.check();
    assert.equal(t.restores(), 2, 'a second restore');
  });

  it('reads once more when signalled during a read', async () => {
    const answers: ((marker: string) => void)[] = [];
    let restores = 0;
    const w = new RestoreWatcher({
      read: () => new Promise((resolve) => answers.push(resolve)),
      onRestore: () => void (restores += 1),
      log: () => undefined,
    });
    answers.shift()?.('a');
    const first = w.check();
    await new Promise((done) => setImmediate(done));
    assert.equal(answers.length, 1, 'one read under way');
    const second = w.check();
    assert.equal(answers.length, 1, 'no second read at the same time');
    answers.shift()?.('a');
    await new Promise((done) => setImmediate(done));
    answers.shift()?.('b');
    await Promise.all([first, second]);
    assert.equal(restores, 1, 'the change written during the first read was seen');
  });

  it('logs a failed read and compares the next one with the last marker it saw', async () => {
    const t = watcher(['a', new Error('database is locked'), 'a', 'c']);
    await t.w.check();
    assert.equal(t.logged.length, 1);
    await t.w.check();
    assert.equal(t.restores(), 0);
    await t.w.check();
    assert.equal(t.restores(), 1);
  });
});
