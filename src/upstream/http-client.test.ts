import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { UpstreamHttpClient } from './http-client.js';
import { SseItemStream } from './framing/sse-stream.js';
import type { SseEvent } from './framing/sse-parser.js';
import type { UpstreamResponse } from './response.js';
import { failure, loopbackUpstream, type LoopbackUpstream } from './loopback-fixture.js';

let up: LoopbackUpstream;
const client = new UpstreamHttpClient();

before(async () => {
  up = await loopbackUpstream();
});

after(async () => {
  await client.close();
  await up.close();
});

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Every event of an SSE body, read as the dialects read them (SseItemStream). */
async function sseEvents(res: UpstreamResponse, into: SseEvent[] = []): Promise<SseEvent[]> {
  const stream = new SseItemStream<SseEvent>(res, { read: (e) => e, complete: () => false, last: () => null });
  for await (const event of stream) into.push(event);
  return into;
}

test('a body that came with the headers is read as JSON (multi-byte text intact)', async () => {
  up.handlers.set('whole', (_req, res) =>
    res.writeHead(200, { 'content-type': 'application/json', 'x-n': '1' }).end('{"a":"é€😀"}'),
  );
  const res = await client.send(up.call('whole'));
  assert.equal(res.status, 200);
  assert.equal(res.headers['x-n'], '1');
  assert.deepEqual(await res.json(), { a: 'é€😀' });
});

test('a body in several writes, a multi-byte character split between them, is joined before decoding', async () => {
  const bytes = Buffer.from('{"a":"€€"}');
  up.handlers.set('parts', (_req, res) => {
    res.writeHead(200);
    res.write(bytes.subarray(0, 7));
    setTimeout(() => res.end(bytes.subarray(7)), 30);
  });
  const res = await client.send(up.call('parts'));
  assert.equal(await res.text(), '{"a":"€€"}');
});

test('text() over its limit is a protocol error and closes the connection', async () => {
  up.handlers.set('big', (_req, res) => {
    res.writeHead(200);
    res.write('x'.repeat(100));
    setTimeout(() => res.write('y'.repeat(100)), 20);
  });
  const res = await client.send(up.call('big'));
  const err = await failure(res.text(150));
  assert.equal(err.kind, 'protocol');
  await up.closed.get('big');
});

test('invalid JSON is a protocol error', async () => {
  up.handlers.set('bad', (_req, res) => res.writeHead(200).end('{nope'));
  const res = await client.send(up.call('bad'));
  assert.equal((await failure(res.json())).kind, 'protocol');
});

test('headers later than the first-byte timeout → timeout, at the deadline', async () => {
  up.handlers.set('slow-headers', (_req, res) => setTimeout(() => res.writeHead(200).end('{}'), 1500));
  const t0 = Date.now();
  const err = await failure(
    client.send(up.call('slow-headers', { timeouts: { connectMs: 1000, firstByteMs: 100, idleMs: 1000 } })),
  );
  assert.equal(err.kind, 'timeout');
  assert.match(err.message, /first byte/);
  assert.ok(Date.now() - t0 < 1000);
});

test('headers at once, first body byte after the first-byte deadline → timeout while reading', async () => {
  up.handlers.set('slow-body', (_req, res) => {
    res.writeHead(200);
    res.flushHeaders();
    setTimeout(() => res.end('{}'), 400);
  });
  const res = await client.send(
    up.call('slow-body', { timeouts: { connectMs: 1000, firstByteMs: 100, idleMs: 1000 } }),
  );
  const err = await failure(res.text());
  assert.equal(err.kind, 'timeout');
  assert.match(err.message, /first byte/);
  await up.closed.get('slow-body');
});

test('silence between chunks longer than idleMs → idle timeout; time the reader holds a chunk does not count', async () => {
  up.handlers.set('idle', (_req, res) => {
    res.writeHead(200);
    res.write('a');
    setTimeout(() => res.write('b'), 50);
    setTimeout(() => res.write('c'), 500);
  });
  const res = await client.send(up.call('idle'));
  const it = res.chunks()[Symbol.asyncIterator]();
  assert.equal(String((await it.next()).value), 'a');
  await pause(250); // holding the chunk longer than idleMs: no timeout
  assert.equal(String((await it.next()).value), 'b');
  const err = await failure(it.next());
  assert.equal(err.kind, 'timeout');
  assert.match(err.message, /idle/);
});

test('chunks() yields every byte in order and ends; a second read is refused', async () => {
  up.handlers.set('chunks', (_req, res) => {
    res.writeHead(200);
    let i = 0;
    const tick = () => (++i < 5 ? (res.write(`${i};`), setTimeout(tick, 5)) : res.end('end'));
    tick();
  });
  const res = await client.send(up.call('chunks'));
  let text = '';
  for await (const chunk of res.chunks()) text += String(chunk);
  assert.equal(text, '1;2;3;4;end');
  assert.throws(() => res.chunks(), /already consumed/);
});

test('a large body is read whole although the reader starts late (paused socket resumes)', async () => {
  const size = 1024 * 1024;
  up.handlers.set('large', (_req, res) => res.writeHead(200).end(Buffer.alloc(size, 97)));
  const res = await client.send(up.call('large'));
  await pause(50);
  let total = 0;
  for await (const chunk of res.chunks()) total += chunk.length;
  assert.equal(total, size);
});

test('aborting before the headers rejects with aborted and closes the upstream connection', async () => {
  up.handlers.set('abort-early', () => undefined);
  const controller = new AbortController();
  const pending = client.send(up.call('abort-early', { signal: controller.signal }));
  setTimeout(() => controller.abort(), 50);
  assert.equal((await failure(pending)).kind, 'aborted');
  await up.closed.get('abort-early');
});

test('aborting while a reader waits rejects it with aborted and closes the connection', async () => {
  up.handlers.set('abort-mid', (_req, res) => {
    res.writeHead(200);
    res.write('a');
  });
  const controller = new AbortController();
  const res = await client.send(
    up.call('abort-mid', { signal: controller.signal, timeouts: { connectMs: 1000, firstByteMs: 1000, idleMs: 5000 } }),
  );
  const it = res.chunks()[Symbol.asyncIterator]();
  await it.next();
  setTimeout(() => controller.abort(), 20);
  assert.equal((await failure(it.next())).kind, 'aborted');
  await up.closed.get('abort-mid');
});

test('an already aborted signal rejects without a request', async () => {
  const controller = new AbortController();
  controller.abort();
  assert.equal((await failure(client.send(up.call('never', { signal: controller.signal })))).kind, 'aborted');
});

test('discard() and return() close an unfinished body; a cut body is a connection error', async () => {
  up.handlers.set('discard', (_req, res) => {
    res.writeHead(200);
    res.write('a');
  });
  const res = await client.send(up.call('discard'));
  res.discard();
  res.discard();
  await up.closed.get('discard');
  up.handlers.set('cut', (_req, res) => {
    res.writeHead(200, { 'content-length': '100' });
    res.write('a');
    setTimeout(() => res.destroy(), 20);
  });
  const cut = await client.send(up.call('cut'));
  assert.equal((await failure(cut.text())).kind, 'connection');
});

test('a finished body keeps the socket for the next call', async () => {
  const ports = new Set<number>();
  up.handlers.set('keep', (req, res) => {
    ports.add(req.socket.remotePort ?? 0);
    res.writeHead(200).end('{}');
  });
  const own = new UpstreamHttpClient();
  for (let i = 0; i < 3; i++) {
    await (await own.send(up.call('keep'))).json();
    await pause(10); // undici frees the socket a tick after the body ends
  }
  await own.close();
  assert.equal(ports.size, 1);
});

test('a declared content-length over the body limit fails at the headers, before any byte is buffered', async () => {
  up.handlers.set('declared', (_req, res) => {
    res.writeHead(200, { 'content-length': '5000' });
    res.write('x'.repeat(100));
  });
  const small = new UpstreamHttpClient({ maxBodyBytes: 1000 });
  const err = await failure(small.send(up.call('declared')));
  await small.close();
  assert.equal(err.kind, 'protocol');
  assert.equal(err.status, 502);
  await up.closed.get('declared');
});

test('an SSE event over the event limit fails the exchange with a protocol error and closes the connection', async () => {
  up.handlers.set('big-event', (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.write('data: {"ok":1}\n\n');
    const tick = () => (res.destroyed ? undefined : (res.write('y'.repeat(400)), setTimeout(tick, 5)));
    res.write('data: ');
    tick();
  });
  const small = new UpstreamHttpClient({ maxEventBytes: 1000 });
  const res = await small.send(up.call('big-event'));
  const events: SseEvent[] = [];
  const err = await failure(sseEvents(res, events));
  await small.close();
  assert.equal(events.length, 1);
  assert.equal(err.kind, 'protocol');
  assert.match(err.message, /event exceeds 1000 bytes/);
  await up.closed.get('big-event');
});

test('an SSE body that trickles bytes without completing an event times out as idle', async () => {
  up.handlers.set('trickle-sse', (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.write(': keep-alive\n\n');
    const tick = () => (res.destroyed ? undefined : (res.write('x'), setTimeout(tick, 20)));
    res.write('data: ');
    tick();
  });
  const res = await client.send(up.call('trickle-sse'));
  const err = await failure(sseEvents(res));
  assert.equal(err.kind, 'timeout');
  assert.match(err.message, /idle/);
  await up.closed.get('trickle-sse');
});

test('a JSON body that trickles must still be complete within the idle timeout of the read', async () => {
  up.handlers.set('trickle-json', (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    const tick = () => (res.destroyed ? undefined : (res.write(' '), setTimeout(tick, 20)));
    tick();
  });
  const res = await client.send(
    up.call('trickle-json', { timeouts: { connectMs: 1000, firstByteMs: 100, idleMs: 300 } }),
  );
  const err = await failure(res.json());
  assert.equal(err.kind, 'timeout');
  assert.match(err.message, /body/);
  await up.closed.get('trickle-json');
});
