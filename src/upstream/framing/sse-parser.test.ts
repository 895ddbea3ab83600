import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseSse, SseEventTooLargeError, SseParser, type SseEvent } from './sse-parser.js';

function parseInPieces(bytes: Uint8Array, cuts: number[]): SseEvent[] {
  const parser = new SseParser();
  const out: SseEvent[] = [];
  let start = 0;
  for (const cut of [...cuts, bytes.length]) {
    out.push(...parser.push(bytes.subarray(start, cut)));
    start = cut;
  }
  out.push(...parser.end());
  return out;
}

const STREAM =
  '\ufeff: OPENROUTER PROCESSING\r\n\r\n' +
  'data: {"a":"héllo ☃ 😀"}\r\n\r\n' +
  'event: content_block_delta\ndata: line1\ndata:line2\ndata:  indented\n\n' +
  'id: 7\rdata: cr-only\r\r' +
  ': comment between\n' +
  'data\n\n' +
  'retry: 10\nunknown: x\ndata: [DONE]\n\n';

const EXPECTED: SseEvent[] = [
  { event: 'message', data: '{"a":"héllo ☃ 😀"}', id: null },
  { event: 'content_block_delta', data: 'line1\nline2\n indented', id: null },
  { event: 'message', data: 'cr-only', id: '7' },
  { event: 'message', data: '', id: '7' },
  { event: 'message', data: '[DONE]', id: '7' },
];

test('whole stream in one chunk', () => {
  assert.deepEqual(parseInPieces(new TextEncoder().encode(STREAM), []), EXPECTED);
});

test('every single split point (inside CRLF, inside multi-byte UTF-8, inside field names)', () => {
  const bytes = new TextEncoder().encode(STREAM);
  for (let i = 1; i < bytes.length; i++) {
    assert.deepEqual(parseInPieces(bytes, [i]), EXPECTED, `split at ${i}`);
  }
});

test('every pair of split points on a smaller stream', () => {
  const bytes = new TextEncoder().encode('data: é\r\n\r\nevent: x\r\ndata: 1\r\ndata: 2\r\n\r\n');
  const expected = [
    { event: 'message', data: 'é', id: null },
    { event: 'x', data: '1\n2', id: null },
  ];
  for (let i = 1; i < bytes.length; i++) {
    for (let j = i; j < bytes.length; j++) assert.deepEqual(parseInPieces(bytes, [i, j]), expected, `${i},${j}`);
  }
});

test('byte by byte', () => {
  const bytes = new TextEncoder().encode(STREAM);
  const cuts = Array.from({ length: bytes.length - 1 }, (_, i) => i + 1);
  assert.deepEqual(parseInPieces(bytes, cuts), EXPECTED);
});

test('a last event without the blank line is still delivered at end()', () => {
  const parser = new SseParser();
  assert.deepEqual(parser.push('data: {"x":1}\n'), []);
  assert.deepEqual(parser.end(), [{ event: 'message', data: '{"x":1}', id: null }]);
  const p2 = new SseParser();
  p2.push('data: tail-without-newline');
  assert.deepEqual(p2.end(), [{ event: 'message', data: 'tail-without-newline', id: null }]);
});

test('event type without data is not dispatched and does not leak into the next event', () => {
  const parser = new SseParser();
  assert.deepEqual(parser.push('event: ping\n\ndata: x\n\n'), [{ event: 'message', data: 'x', id: null }]);
});

test('comments are reported to onComment and skipped', () => {
  const comments: string[] = [];
  const parser = new SseParser({ onComment: (c) => comments.push(c) });
  assert.deepEqual(parser.push(': keep-alive\n:x\ndata: 1\n\n'), [{ event: 'message', data: '1', id: null }]);
  assert.deepEqual(comments, ['keep-alive', 'x']);
});

test('a single huge line is bounded', () => {
  const parser = new SseParser({ maxEventChars: 100 });
  assert.throws(() => {
    for (let i = 0; i < 20; i++) parser.push('data: 0123456789');
  }, SseEventTooLargeError);
});

test('parseSse over an async iterable', async () => {
  async function* source(): AsyncGenerator<Uint8Array> {
    const bytes = new TextEncoder().encode(STREAM);
    for (let i = 0; i < bytes.length; i += 3) yield bytes.subarray(i, i + 3);
  }
  const events: SseEvent[] = [];
  for await (const e of parseSse(source())) events.push(e);
  assert.deepEqual(events, EXPECTED);
});

test('many events in one chunk stay linear (smoke)', () => {
  const one = 'data: {"choices":[{"delta":{"content":"token"}}]}\n\n';
  const big = one.repeat(20_000);
  const parser = new SseParser();
  const t0 = Date.now();
  const events = [...parser.push(big), ...parser.end()];
  assert.equal(events.length, 20_000);
  assert.ok(Date.now() - t0 < 2000);
});

test('SseParser: a UTF-8 byte-order mark is dropped even when split across chunks, invalid bytes become U+FFFD', () => {
  const p = new SseParser();
  const events = [
    ...p.push(Uint8Array.from([0xef, 0xbb])),
    ...p.push(Uint8Array.from([0xbf, 0x64])),
    ...p.push(Buffer.from('ata: a\xff\n\n', 'latin1')),
    ...p.end(),
  ];
  assert.deepEqual(
    events.map((e) => e.data),
    ['a\ufffd'],
  );
});

test('LF-only stream (the fast path) at every split point, with multi-line data, comments and a last line without terminator', () => {
  const text = ': hi\ndata: {"a":1}\n\ndata:x\ndata: y\nevent: e\nid: 3\n\ndata: é😀\n\ndata: tail';
  const expected = [
    { event: 'message', data: '{"a":1}', id: null },
    { event: 'e', data: 'x\ny', id: '3' },
    { event: 'message', data: 'é😀', id: '3' },
    { event: 'message', data: 'tail', id: '3' },
  ];
  const bytes = new TextEncoder().encode(text);
  for (let i = 0; i <= bytes.length; i++) assert.deepEqual(parseInPieces(bytes, [i]), expected, `split at ${i}`);
});
