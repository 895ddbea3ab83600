import type { ServerResponse } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { messagesEvents, messagesJson } from './anthropic-wire.js';
import type { FakeBehaviour } from './behaviour.js';
import type { Json } from './json.js';
import { chatEvents, chatJson, completionEvents, completionJson } from './openai-wire.js';

/**
 * Faulty answers of the fake upstream (tokens `garbage`, `huge-body-<bytes>`, `huge-event-<bytes>`,
 * `huge-first-event-<bytes>`, `hang-after-headers`, `trickle-<ms>`): what a broken or hostile
 * provider sends with a 200. Large bodies are written in pieces with backpressure and stop when
 * the gateway hangs up, so the fake itself stays small.
 */
export type FaultWire = 'openai-chat' | 'openai-completions' | 'anthropic';

const PIECE = 64 * 1024;

/** Answers with the behaviour's fault; false when it has none (the normal answer follows). */
export async function answerFault(
  res: ServerResponse,
  wire: FaultWire,
  body: Json,
  b: FakeBehaviour,
): Promise<boolean> {
  const stream = body.stream === true;
  const contentType = stream ? 'text/event-stream' : 'application/json';
  if (b.garbage) {
    res.writeHead(200, { 'content-type': contentType });
    res.end(Buffer.from([0x00, 0xff, 0xfe, 0x3c, 0x68, 0x74, 0x6d, 0x6c, 0x3e, 0x0a, 0x7b, 0x7b, 0x0a]));
    return true;
  }
  if (b.hangAfterHeaders) {
    res.writeHead(200, { 'content-type': contentType });
    res.flushHeaders();
    return true; // never a byte more: the gateway must time out
  }
  if (b.hugeBodyBytes !== null && !stream) {
    res.writeHead(200, { 'content-type': 'application/json' });
    await writeBig(res, '{"id":"chatcmpl-huge","object":"chat.completion","pad":"', b.hugeBodyBytes, '"}');
    return true;
  }
  if (b.hugeEventBytes !== null && stream) {
    const events = sseEvents(wire, body, b);
    const at = b.hugeEventFirst ? 0 : Math.min(2, events.length);
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    for (const event of events.slice(0, at)) res.write(event);
    await writeBig(res, 'data: {"pad":"', b.hugeEventBytes, '"}\n\n');
    return true;
  }
  if (b.trickleMs > 0) {
    const text = stream ? sseEvents(wire, body, b).join('') : JSON.stringify(jsonAnswer(wire, body, b));
    res.writeHead(200, { 'content-type': contentType });
    for (const char of text) {
      if (res.destroyed) return true;
      res.write(char);
      await sleep(b.trickleMs);
    }
    res.end();
    return true;
  }
  return false;
}

/** `head`, then `size` bytes of padding, then `tail`; stops when the peer is gone. */
async function writeBig(res: ServerResponse, head: string, size: number, tail: string): Promise<void> {
  res.write(head);
  const piece = Buffer.alloc(PIECE, 0x61);
  for (let sent = 0; sent < size && !res.destroyed; sent += PIECE) {
    if (!res.write(piece)) {
      await new Promise<void>((resolve) => {
        const done = (): void => {
          res.off('drain', done);
          res.off('close', done);
          resolve();
        };
        res.on('drain', done);
        res.on('close', done);
      });
    }
  }
  if (!res.destroyed) res.end(tail);
}

function jsonAnswer(wire: FaultWire, body: Json, b: FakeBehaviour): Json {
  if (wire === 'anthropic') return messagesJson(body, b);
  return wire === 'openai-chat' ? chatJson(body, b) : completionJson(body, b);
}

/** The normal stream as wire text, one string per event. */
function sseEvents(wire: FaultWire, body: Json, b: FakeBehaviour): string[] {
  if (wire === 'anthropic') {
    return messagesEvents(body, b).map((e) => `event: ${e.event}\r\ndata: ${JSON.stringify(e.data)}\r\n\r\n`);
  }
  const events = wire === 'openai-chat' ? chatEvents(body, b) : completionEvents(body, b);
  return [...events.map((e) => `data: ${JSON.stringify(e)}\n\n`), 'data: [DONE]\n\n'];
}
