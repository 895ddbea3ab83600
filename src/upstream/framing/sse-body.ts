import { SseParser, type SseEvent } from './sse-parser.js';
import { FrameBatch, type EventPacedBody, type FrameParser } from './frame-batch.js';
import { protocolError } from '../upstream-error.js';

/**
 * The SSE parser of one upstream body. An event (or a line) longer than the event limit fails the
 * exchange with a protocol error (502) and frees its socket at once, so an oversized event costs
 * at most the limit in memory. Idle time is counted between completed events, not bytes (a
 * keep-alive comment counts as an event): an upstream that trickles bytes without ever finishing
 * an event times out like a silent one.
 */
export class UpstreamSseParser implements FrameParser<SseEvent> {
  private readonly parser: SseParser;
  private readonly batch = new FrameBatch<SseEvent>();

  constructor(
    private readonly body: EventPacedBody,
    providerId: string,
    maxEventBytes: number,
  ) {
    this.parser = new SseParser({
      maxEventChars: maxEventBytes,
      onComment: () => body.progress(),
      onEvent: (event) => this.batch.add(event),
      tooLarge: (limit) => {
        const err = protocolError(providerId, `Provider stream event exceeds ${limit} bytes`);
        body.abortWith(err);
        return err;
      },
    });
  }

  /**
   * The events this chunk completed (throws the exchange's UpstreamError over the limit), in the
   * parser's one batch: read them before the next `push` or `end`, which refill it.
   */
  push(chunk: Uint8Array): FrameBatch<SseEvent> {
    this.batch.clear();
    this.parser.feed(chunk);
    if (this.batch.length > 0) this.body.progress();
    return this.batch;
  }

  /** The events the body's end completed, in the same batch. */
  end(): FrameBatch<SseEvent> {
    this.batch.clear();
    this.parser.finish();
    return this.batch;
  }
}

/** The subset of UpstreamResponse an event reader uses. */
export interface EventSource {
  chunks(): AsyncIterable<Buffer>;
  sseParser(): UpstreamSseParser;
}

/**
 * An event's `data` as a JSON object: null for another JSON value (ignored by the dialects), a
 * protocol error (502) when it is not JSON at all.
 */
export function eventJson(event: SseEvent, providerId: string): Record<string, unknown> | null {
  let data: unknown;
  try {
    data = JSON.parse(event.data) as unknown;
  } catch (err) {
    throw protocolError(providerId, 'Provider sent an invalid stream event', err);
  }
  return typeof data === 'object' && data !== null && !Array.isArray(data) ? (data as Record<string, unknown>) : null;
}
