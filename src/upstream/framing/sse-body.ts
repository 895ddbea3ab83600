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

  constructor(
    private readonly body: EventPacedBody,
    providerId: string,
    maxEventBytes: number,
  ) {
    this.parser = new SseParser({
      maxEventChars: maxEventBytes,
      onComment: () => body.progress(),
      tooLarge: (limit) => {
        const err = protocolError(providerId, `Provider stream event exceeds ${limit} bytes`);
        body.abortWith(err);
        return err;
      },
    });
  }

  /** The events this chunk completed (throws the exchange's UpstreamError over the limit). */
  push(chunk: Uint8Array): SseEvent[] {
    const events = this.parser.push(chunk);
    if (events.length > 0) this.body.progress();
    return events;
  }

  end(): SseEvent[] {
    return this.parser.end();
  }
}

/** The subset of UpstreamResponse an event reader uses. */
export interface EventSource {
  chunks(): AsyncIterable<Buffer>;
  sseParser(): UpstreamSseParser;
}

/** The events of an upstream SSE body in order; every failure is thrown as an UpstreamError. */
export async function* upstreamEvents(res: EventSource): AsyncGenerator<SseEvent, void, undefined> {
  const parser = res.sseParser();
  for await (const chunk of res.chunks()) {
    for (const event of parser.push(chunk)) yield event;
  }
  for (const event of parser.end()) yield event;
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
