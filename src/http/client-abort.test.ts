import assert from 'node:assert/strict';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { ClientAbortSignal } from './client-abort.js';

test('fires once: aborted, an AbortError reason, onabort and listeners (functions and handleEvent objects)', () => {
  const signal = new ClientAbortSignal();
  const seen: string[] = [];
  signal.onabort = () => seen.push('onabort');
  signal.addEventListener('abort', () => seen.push('listener'), { once: true });
  signal.addEventListener('abort', { handleEvent: (e: Event) => seen.push(`object:${e.type}`) });
  const removed = { handleEvent: () => seen.push('removed') };
  signal.addEventListener('abort', removed);
  signal.removeEventListener('abort', removed);
  assert.equal(signal.aborted, false);
  signal.throwIfAborted();
  signal.abort();
  signal.abort();
  assert.equal(signal.aborted, true);
  assert.ok(signal.reason instanceof DOMException);
  assert.equal(signal.reason.name, 'AbortError');
  assert.deepEqual(seen, ['onabort', 'listener', 'object:abort']);
  assert.throws(() => signal.throwIfAborted(), { name: 'AbortError' });
});

test("Node's signal-taking APIs accept it (timers/promises)", async () => {
  const signal = new ClientAbortSignal();
  const waiting = sleep(10_000, undefined, { signal });
  signal.abort();
  await assert.rejects(waiting, { name: 'AbortError' });
  await assert.rejects(sleep(1, undefined, { signal }), { name: 'AbortError' }, 'already aborted');
});
