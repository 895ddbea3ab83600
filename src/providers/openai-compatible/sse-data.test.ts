import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { UpstreamResponse } from '../../upstream/index.js';
import { openAiSseData } from './sse-data.js';

/** A response whose body sends `parts`, then stays open until `release` resolves. */
function openBody(parts: string[], release: Promise<void>, drained: { done: boolean }): UpstreamResponse {
  async function* chunks(): AsyncGenerator<Buffer, void, undefined> {
    for (const p of parts) yield Buffer.from(p);
    await release;
    drained.done = true;
  }
  return {
    status: 200,
    headers: {},
    chunks,
    text: () => Promise.reject(new Error('unused')),
    json: () => Promise.reject(new Error('unused')),
    discard: () => undefined,
  };
}

test('openAiSseData ends at [DONE] without waiting for the upstream to close, and drains the rest in the background', async () => {
  let release = (): void => undefined;
  const held = new Promise<void>((resolve) => (release = resolve));
  const drained = { done: false };
  const res = openBody(['data: {"id":"a","choices":[]}\n\n', 'data: [DONE]\n\n'], held, drained);
  const seen: unknown[] = [];
  const gen = openAiSseData(res, { providerId: 'p', apiKey: null });
  let step = await gen.next();
  while (step.done !== true) {
    seen.push(step.value);
    step = await gen.next();
  }
  assert.equal(step.value, true, '[DONE] seen');
  assert.equal(seen.length, 1);
  assert.equal(drained.done, false, 'the body is still open');
  release();
  await new Promise((r) => setImmediate(r));
  assert.equal(drained.done, true, 'the rest was read to the end');
});

test('openAiSseData: a caller that stops early closes the body', async () => {
  let closed = false;
  async function* chunks(): AsyncGenerator<Buffer, void, undefined> {
    try {
      yield Buffer.from('data: {"id":"a"}\n\ndata: {"id":"b"}\n\n');
      yield Buffer.from('data: {"id":"c"}\n\n');
    } finally {
      closed = true;
    }
  }
  const res: UpstreamResponse = { status: 200, headers: {}, chunks, text: () => Promise.reject(new Error('x')), json: () => Promise.reject(new Error('x')), discard: () => undefined };
  const gen = openAiSseData(res, { providerId: 'p', apiKey: null });
  await gen.next();
  await gen.return(false);
  assert.equal(closed, true);
});
