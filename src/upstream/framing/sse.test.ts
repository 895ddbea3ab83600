import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SSE_FRAMING } from './sse.js';

async function* bytes(...parts: string[]): AsyncGenerator<Uint8Array> {
  for (const p of parts) yield Buffer.from(p);
}

async function all<E>(events: AsyncIterable<E>): Promise<E[]> {
  const out: E[] = [];
  for await (const e of events) out.push(e);
  return out;
}

test('SSE framing: whole events out of split bytes, named and unnamed', async () => {
  assert.equal(SSE_FRAMING.contentType, 'text/event-stream');
  const events = await all(
    SSE_FRAMING.decode(bytes('event: a\nda', 'ta: {"x":1}\n\n: keep-alive\n\ndata: 2\n', '\n'), {
      maxEventBytes: 1024,
    }),
  );
  assert.deepEqual(
    events.map((e) => [e.event, e.data]),
    [
      ['a', '{"x":1}'],
      ['message', '2'],
    ],
  );
});

test('SSE framing: an event over the limit throws', async () => {
  await assert.rejects(all(SSE_FRAMING.decode(bytes(`data: ${'x'.repeat(100)}\n\n`), { maxEventBytes: 10 })));
});
