import type { SseEvent } from './sse-parser.js';
import { SseEventBatch, type EventSource, type UpstreamSseParser } from './sse-body.js';

/** What a stream makes of its upstream's SSE events: one dialect's reading, with its own state. */
export interface SseStreamReader<T> {
  /** The item this event gives the caller, or null for none. Throwing fails the stream. */
  read(event: SseEvent): T | null;
  /**
   * For a dialect whose one event can give several items: the next item the last event gave
   * after the one `read` returned, or null. Asked before each new event is read.
   */
  more?(): T | null;
  /** The stream is complete for the caller (`[DONE]`, `message_stop`): no later event is read. */
  complete(): boolean;
  /**
   * The stream's last item (null: none), asked once: when the stream is complete, or when the body
   * ended first. Throwing fails the stream (a body that ended before the stream was complete).
   */
  last(bodyEnded: boolean): T | null;
}

const END: IteratorResult<never, undefined> = Object.freeze({ done: true, value: undefined });
const NO_EVENTS = new SseEventBatch();

/**
 * The items of an upstream SSE body, one `next()` at a time: the parser runs on each body chunk
 * and the events it completed are read one per `next()`, each answered with a resolved promise.
 * A hand-written iterator rather than async generators: no generator (and its promise and
 * microtask hops) between the body and the caller, per event.
 *
 * Once the reader says the stream is complete, the stream ends for the caller at once; the rest of
 * the body (normally just its end) is drained in the background, under the exchange's idle timer,
 * so the socket still goes back to the pool. Stopping early (`return`) or any failure closes the
 * upstream body.
 */
export class SseItemStream<T> {
  private readonly body: AsyncIterator<Buffer>;
  private readonly parser: UpstreamSseParser;
  private events: SseEventBatch = NO_EVENTS;
  private index = 0;
  private bodyEnded = false;
  /** The last item went out, or the stream failed / was closed: nothing more to hand out. */
  private over = false;
  private readonly onChunk = (step: IteratorResult<Buffer>): Promise<IteratorResult<T, void>> => {
    try {
      if (step.done === true) {
        this.bodyEnded = true;
        this.events = this.parser.end();
      } else {
        this.events = this.parser.push(step.value);
      }
    } catch (err) {
      return this.failed(err); // an event over the limit: the exchange is already failed
    }
    this.index = 0;
    return this.next();
  };
  private readonly onBodyError = (err: unknown): Promise<IteratorResult<T, void>> => this.failed(err);

  constructor(
    res: EventSource,
    private readonly reader: SseStreamReader<T>,
  ) {
    this.parser = res.sseParser();
    this.body = res.chunks()[Symbol.asyncIterator]();
  }

  [Symbol.asyncIterator](): this {
    return this;
  }

  next(): Promise<IteratorResult<T, void>> {
    if (this.over) return Promise.resolve(END);
    const { reader } = this;
    try {
      const queued = reader.more?.() ?? null;
      if (queued !== null) return Promise.resolve({ done: false, value: queued });
      while (this.index < this.events.length && !reader.complete()) {
        const item = reader.read(this.events.at(this.index++));
        if (item !== null) return Promise.resolve({ done: false, value: item });
      }
      if (!reader.complete() && !this.bodyEnded) return this.body.next().then(this.onChunk, this.onBodyError);
      const last = reader.last(this.bodyEnded);
      this.over = true;
      if (!this.bodyEnded) void drainRest(this.body);
      return Promise.resolve(last === null ? END : { done: false, value: last });
    } catch (err) {
      return this.failed(err);
    }
  }

  /** The caller stopped early: close the body, as a for-await over a generator would. */
  async return(): Promise<IteratorResult<T, void>> {
    if (!this.over) {
      this.over = true;
      if (!this.bodyEnded && !this.reader.complete()) await this.body.return?.();
    }
    return END;
  }

  private async failed(err: unknown): Promise<never> {
    this.over = true;
    if (!this.bodyEnded) await this.body.return?.();
    throw err;
  }
}

/** Reads what follows the stream's end to the body's end; a failure there (e.g. the upstream never closed) loses nothing. */
async function drainRest(chunks: AsyncIterator<Buffer>): Promise<void> {
  try {
    for (;;) if ((await chunks.next()).done === true) return;
  } catch {
    // idle timeout or reset after the answer was complete
  }
}
