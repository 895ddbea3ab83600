import { SseParser, type SseEvent } from './sse-parser.js';
import { protocolError, type UpstreamError } from '../upstream-error.js';

/** What an upstream body offers the parser of its events. */
export interface EventPacedBody {
  /** An event or a comment was completed: idle time counts from now. */
  progress(): void;
  /** Ends the exchange with this error and frees its socket. */
  abortWith(err: UpstreamError): void;
}

/**
 * The SSE parser of one upstream body. An event (or a line) longer than the event limit fails the
 * exchange with a protocol error (502) and frees its socket at once, so an oversized event costs
 * at most the limit in memory. Idle time is counted between completed events, not bytes (a
 * keep-alive comment counts as an event): an upstream that trickles bytes without ever finishing
 * an event times out like a silent one.
 */
export class UpstreamSseParser {
  private readonly parser: SseParser;
  private readonly batch = new SseEventBatch();

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
  push(chunk: Uint8Array): SseEventBatch {
    this.batch.clear();
    this.parser.feed(chunk);
    if (this.batch.length > 0) this.body.progress();
    return this.batch;
  }

  /** The events the body's end completed, in the same batch. */
  end(): SseEventBatch {
    this.batch.clear();
    this.parser.finish();
    return this.batch;
  }
}

/**
 * The events one body chunk completed. An `UpstreamSseParser` refills one batch for every chunk
 * (slots are overwritten, not reallocated), so a stream allocates no array per chunk.
 */
export class SseEventBatch {
  private readonly events: SseEvent[] = [];
  private count = 0;

  get length(): number {
    return this.count;
  }

  /** The `i`-th event, for `0 <= i < length`. */
  at(i: number): SseEvent {
    return this.events[i] as SseEvent;
  }

  add(event: SseEvent): void {
    this.events[this.count++] = event;
  }

  clear(): void {
    this.count = 0;
  }
}

/** The subset of UpstreamResponse an event reader uses. */
export interface EventSource {
  chunks(): AsyncIterable<Buffer>;
  sseParser(): UpstreamSseParser;
}

/**
 * The events of an upstream SSE body in order, as a generator; every failure is thrown as an
 * UpstreamError. The dialects read their streams through SseItemStream instead (no generator per
 * event); this reads a body's events where per-event cost does not matter.
 */
export async function* upstreamEvents(res: EventSource): AsyncGenerator<SseEvent, void, undefined> {
  const parser = res.sseParser();
  for await (const chunk of res.chunks()) {
    const batch = parser.push(chunk);
    for (let i = 0; i < batch.length; i++) yield batch.at(i);
  }
  const last = parser.end();
  for (let i = 0; i < last.length; i++) yield last.at(i);
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
