import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { BatchedLogDestination, LOG_BATCH_MS } from './log-destination.js';

function fakeWriter() {
  const writes: string[] = [];
  let syncFlushes = 0;
  return {
    writes,
    syncFlushes: () => syncFlushes,
    write: (data: string) => {
      writes.push(data);
      return true;
    },
    flush: (cb?: (err?: Error) => unknown) => void cb?.(),
    flushSync: () => void (syncFlushes += 1),
  };
}

test('lines of one batch reach the writer as one string, in order, within the batch interval', async () => {
  const writer = fakeWriter();
  const destination = new BatchedLogDestination(writer);
  destination.write('a\n');
  destination.write('b\n');
  destination.write('c\n');
  assert.deepEqual(writer.writes, [], 'nothing is written synchronously');
  await sleep(LOG_BATCH_MS * 5);
  assert.deepEqual(writer.writes, ['a\nb\nc\n']);
  destination.write('d\n');
  await sleep(LOG_BATCH_MS * 5);
  assert.deepEqual(writer.writes, ['a\nb\nc\n', 'd\n']);
  destination.close();
});

test('flushSync and close hand over what is pending at once', () => {
  const writer = fakeWriter();
  const destination = new BatchedLogDestination(writer);
  destination.write('x\n');
  destination.flushSync();
  assert.deepEqual(writer.writes, ['x\n']);
  assert.equal(writer.syncFlushes(), 1);
  destination.write('y\n');
  destination.close();
  assert.deepEqual(writer.writes, ['x\n', 'y\n']);
});

test('a process that exits right after logging still writes its lines (real stdout)', () => {
  const module = join(dirname(fileURLToPath(import.meta.url)), 'log-destination.js');
  const script = `import { asyncStdout } from ${JSON.stringify(module)}; const d = asyncStdout(); for (let i = 0; i < 3; i++) d.write('line ' + i + '\\n'); process.exit(0);`;
  const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
  assert.equal(out, 'line 0\nline 1\nline 2\n');
});
