import type { SseEvent } from './sse-parser.js';
import type { EventSource } from './sse-body.js';
import { ItemStream, type FrameReader } from './item-stream.js';

/** One dialect's reading of an SSE stream: one event in, at most one item out (and `more`). */
export type SseStreamReader<T> = FrameReader<SseEvent, T>;

/**
 * The items of an upstream SSE body (`ItemStream` over the body's own SSE parser, which paces the
 * idle timer by events): every SSE dialect's stream reads through it.
 */
export class SseItemStream<T> extends ItemStream<SseEvent, T> {
  constructor(res: EventSource, reader: SseStreamReader<T>) {
    super(res.sseParser(), res.chunks(), reader);
  }
}
