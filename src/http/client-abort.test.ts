import assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyReply } from 'fastify';
import { abortOnDisconnect, ClientAbortSignal } from './client-abort.js';

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

test('listeners added twice run once; removed during the abort, they do not run', () => {
  const signal = new ClientAbortSignal();
  const seen: string[] = [];
  const twice = (): number => seen.push('twice');
  const later = (): number => seen.push('later');
  signal.addEventListener('abort', () => {
    seen.push('first');
    signal.removeEventListener('abort', later);
  });
  signal.addEventListener('abort', twice);
  signal.addEventListener('abort', twice);
  signal.addEventListener('abort', later);
  signal.abort();
  assert.deepEqual(seen, ['first', 'twice']);
});

test('abortOnDisconnect: one close listener; aborts only when the response closes unfinished', () => {
  const reply = (finished: boolean) => {
    const raw = Object.assign(new EventEmitter(), { writableFinished: finished });
    return { raw, fastify: { raw } as unknown as FastifyReply };
  };
  const gone = reply(false);
  const signal = abortOnDisconnect(gone.fastify);
  assert.equal(gone.raw.listenerCount('close'), 1);
  gone.raw.emit('close');
  assert.equal(signal.aborted, true);
  const done = reply(true);
  const kept = abortOnDisconnect(done.fastify);
  done.raw.emit('close');
  assert.equal(kept.aborted, false);
});
