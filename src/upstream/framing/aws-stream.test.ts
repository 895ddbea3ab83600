import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Socket } from 'node:net';
import { eventFrame } from '../../../test/fake-clouds/eventstream.js';
import { UpstreamHttpClient } from '../http-client.js';
import { failure, loopbackUpstream, type LoopbackUpstream } from '../loopback-fixture.js';
import type { UpstreamResponse } from '../response.js';
import type { AwsEventMessage } from './aws-eventstream.js';
import { AwsItemStream } from './aws-stream.js';

/**
 * An AWS event-stream body read through the transport (AwsItemStream over the body's own message
 * parser), as Bedrock's streams are: paced by whole messages, bounded per message.
 */

let up: LoopbackUpstream;
const client = new UpstreamHttpClient({ maxEventBytes: 4096 });
const EVENT_STREAM = { 'content-type': 'application/vnd.amazon.eventstream' };
const frames = ['a', 'b', 'c'].map((text, i) => Buffer.from(eventFrame('contentBlockDelta', { i, delta: { text } })));

before(async () => {
  up = await loopbackUpstream();
});

after(async () => {
  await client.close();
  await up.close();
});

/** The event types of a body, read until the reader has seen `stopAfter` messages (default: the body's end). */
async function types(res: UpstreamResponse, stopAfter = Infinity, into: string[] = []): Promise<string[]> {
  const stream = new AwsItemStream<AwsEventMessage>(res, {
    read: (message) => message,
    complete: () => into.length >= stopAfter,
    last: () => null,
  });
  for await (const message of stream) into.push(`${message.type}:${Buffer.from(message.body).toString('utf8')}`);
  return into;
}

test('messages split across reads come out whole and in order', async () => {
  up.handlers.set('split', (_req, res) => {
    res.writeHead(200, EVENT_STREAM);
    const all = Buffer.concat(frames);
    for (let i = 0; i < all.length; i += 5) res.write(all.subarray(i, i + 5));
    res.end();
  });
  const read = await types(await client.send(up.call('split')));
  assert.deepEqual(
    read,
    ['a', 'b', 'c'].map((text, i) => `contentBlockDelta:${JSON.stringify({ i, delta: { text } })}`),
  );
});

test('a body that trickles bytes without completing a message times out as idle', async () => {
  up.handlers.set('trickle', (_req, res) => {
    res.writeHead(200, EVENT_STREAM);
    res.write(frames[0]);
    const partial = frames[1] as Buffer;
    let at = 0;
    const tick = () =>
      res.destroyed || at >= partial.length - 1
        ? undefined
        : (res.write(partial.subarray(at, ++at)), setTimeout(tick, 20));
    tick();
  });
  const read: string[] = [];
  const err = await failure(types(await client.send(up.call('trickle')), Infinity, read));
  assert.equal(read.length, 1, 'the whole message before the trickle is read');
  assert.equal(err.kind, 'timeout');
  assert.match(err.message, /idle/);
  await up.closed.get('trickle');
});

test('a message declared over the limit fails at its prelude and closes the connection', async () => {
  up.handlers.set('huge', (_req, res) => {
    res.writeHead(200, EVENT_STREAM);
    res.write(frames[0]);
    const prelude = Buffer.alloc(4);
    prelude.writeUInt32BE(10 * 1024 * 1024);
    res.write(prelude); // and never the rest
  });
  const read: string[] = [];
  const err = await failure(types(await client.send(up.call('huge')), Infinity, read));
  assert.equal(read.length, 1);
  assert.equal(err.kind, 'protocol');
  assert.match(err.message, /bad event stream: too_large/);
  await up.closed.get('huge');
});

test('a body cut inside a message is a protocol error; a corrupted message fails its checksum', async () => {
  up.handlers.set('cut', (_req, res) => {
    res.writeHead(200, EVENT_STREAM);
    res.end(Buffer.concat([frames[0] as Buffer, (frames[1] as Buffer).subarray(0, 20)]));
  });
  const cut = await failure(types(await client.send(up.call('cut'))));
  assert.equal(cut.kind, 'protocol');
  assert.match(cut.message, /bad event stream: truncated/);

  up.handlers.set('corrupt', (_req, res) => {
    const bad = Buffer.from(frames[1] as Buffer);
    bad[bad.length - 6] = (bad[bad.length - 6] ?? 0) ^ 0xff;
    res.writeHead(200, EVENT_STREAM);
    res.end(Buffer.concat([frames[0] as Buffer, bad]));
  });
  const corrupt = await failure(types(await client.send(up.call('corrupt'))));
  assert.equal(corrupt.kind, 'protocol');
  assert.match(corrupt.message, /bad event stream: corrupt/);
});

test('a stream complete before its body ends is over at once; the rest is drained and the connection kept', async () => {
  let finish = (): void => undefined;
  let socket: Socket | undefined;
  up.handlers.set('held', (req, res) => {
    socket = req.socket;
    res.writeHead(200, EVENT_STREAM);
    res.write(Buffer.concat(frames.slice(0, 2)));
    finish = () => res.end(frames[2]);
  });
  const read = await types(await client.send(up.call('held')), 2);
  assert.equal(read.length, 2, 'over after the second message, while the body is open');
  finish();
  await up.closed.get('held');
  await new Promise((resolve) => setTimeout(resolve, 50));
  assert.equal(socket?.destroyed, false, 'the client kept the connection for its pool');
});
