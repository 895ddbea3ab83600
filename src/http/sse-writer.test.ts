import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, request, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SseWriter } from './sse-writer.js';

/** Runs `body(writer, res)` as the handler of one request; returns the raw body chunks as received (de-chunked by node:http). */
async function exchange(
  body: (writer: SseWriter, res: ServerResponse) => Promise<void> | void,
  options = { keepAliveAfterMs: 10_000, keepAliveEveryMs: 10_000 },
) {
  const server = createServer((_req, res) => {
    const writer = new SseWriter(res, { ...options, headers: { 'x-test': '1' } });
    void body(writer, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  try {
    return await new Promise<{ headers: Record<string, unknown>; text: string; reads: number }>((resolve, reject) => {
      const req = request(
        { host: '127.0.0.1', port: (server.address() as AddressInfo).port, path: '/', method: 'GET' },
        (res) => {
          let text = '';
          let reads = 0;
          res.setEncoding('utf8');
          res.on('data', (c: string) => {
            text += c;
            reads++;
          });
          res.on('error', () => undefined); // a response cut by the server ends with 'close' below
          res.on('close', () => resolve({ headers: res.headers, text, reads }));
        },
      );
      req.on('error', reject);
      req.end();
    });
  } finally {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

test('events of one turn leave in one write, in order; end() sends what is queued and [DONE]', async () => {
  let writes = 0;
  const out = await exchange(async (writer, res) => {
    const write = res.write.bind(res) as (chunk: string) => boolean;
    res.write = ((chunk: string) => {
      writes++;
      return write(chunk);
    }) as typeof res.write;
    for (let i = 0; i < 5; i++) await writer.data(`{"n":${i}}`);
    await new Promise((r) => setImmediate(r));
    await writer.data('{"n":5}');
    writer.end();
  });
  assert.equal(out.headers['content-type'], 'text/event-stream; charset=utf-8');
  assert.equal(out.headers['x-test'], '1');
  assert.equal(out.text, [0, 1, 2, 3, 4, 5].map((n) => `data: {"n":${n}}\n\n`).join('') + 'data: [DONE]\n\n');
  assert.equal(writes, 1, 'one write for the first turn; the last event went out with end()');
});

test('keep-alive comments before the first event, then the events after them', async () => {
  const out = await exchange(
    async (writer) => {
      writer.startWaiting();
      await new Promise((r) => setTimeout(r, 60));
      writer.stopWaiting();
      await writer.data('{"a":1}');
      writer.comment('between');
      writer.end();
    },
    { keepAliveAfterMs: 10, keepAliveEveryMs: 20 },
  );
  assert.match(out.text, /^(: SWITCHYARD PROCESSING\n\n)+data: \{"a":1\}\n\n: between\n\ndata: \[DONE\]\n\n$/);
});

test('a large burst is written before the turn ends, and backpressure resolves once drained', async () => {
  const big = 'x'.repeat(40 * 1024);
  const out = await exchange(async (writer) => {
    for (let i = 0; i < 50; i++) await writer.data(`"${big}"`);
    writer.end();
  });
  assert.equal(out.text.length, 50 * (big.length + 10) + 'data: [DONE]\n\n'.length);
});

test('nothing is written after the client went away', async () => {
  const out = await exchange(async (writer, res) => {
    await writer.data('{"a":1}');
    await new Promise((r) => setImmediate(r));
    res.destroy();
    assert.equal(writer.data('{"b":2}'), undefined);
    writer.end();
  });
  assert.equal(out.text, 'data: {"a":1}\n\n');
});
