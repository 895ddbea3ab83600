import { FrameBatch, type FrameParser } from './frame-batch.js';

/** What a stream makes of its upstream's frames (SSE events, event-stream messages): one dialect's reading, with its own state. */
export interface FrameReader<F, T> {
  /** The item this frame gives the caller, or null for none. Throwing fails the stream. */
  read(frame: F): T | null;
  /**
   * For a dialect whose one frame (or whose end) can give several items: the next item the last
   * `read` or `last` gave after the one it returned, or null. Asked before each new frame is read,
   * and after `last` until it answers null.
   */
  more?(): T | null;
  /** The stream is complete for the caller (`[DONE]`, `message_stop`): no later frame is read. */
  complete(): boolean;
  /**
   * The stream's last item (null: none), asked once: when the stream is complete, or when the body
   * ended first. Throwing fails the stream (a body that ended before the stream was complete).
   */
  last(bodyEnded: boolean): T | null;
}

const END: IteratorResult<never, undefined> = Object.freeze({ done: true, value: undefined });
const NO_FRAMES = new FrameBatch<never>();

/**
 * The items of an upstream body, one `next()` at a time: the framing's parser runs on each body
 * chunk and the frames it completed are read one per `next()`, each answered with a resolved
 * promise. A hand-written iterator rather than async generators: no generator (and its promise and
 * microtask hops) between the body and the caller, per frame.
 *
 * Once the reader says the stream is complete, the stream ends for the caller at once; the rest of
 * the body (normally just its end) is drained in the background, under the exchange's idle timer,
 * so the socket still goes back to the pool. Stopping early (`return`) or any failure closes the
 * upstream body.
 */
export class ItemStream<F, T> {
  private readonly body: AsyncIterator<Buffer>;
  private frames: FrameBatch<F> = NO_FRAMES;
  private index = 0;
  private bodyEnded = false;
  /** The reader's last item was asked for: only what `more` still holds goes out. */
  private lastAsked = false;
  /** Everything went out, or the stream failed / was closed: nothing more to hand out. */
  private over = false;
  private readonly onChunk = (step: IteratorResult<Buffer>): Promise<IteratorResult<T, void>> => {
    try {
      if (step.done === true) {
        this.bodyEnded = true;
        this.frames = this.parser.end();
      } else {
        this.frames = this.parser.push(step.value);
      }
    } catch (err) {
      return this.failed(err); // a bad or oversized frame: the exchange is already failed
    }
    this.index = 0;
    return this.next();
  };
  private readonly onBodyError = (err: unknown): Promise<IteratorResult<T, void>> => this.failed(err);

  /** `parser` must be the body's own (it paces the idle timer by frames); `chunks` its bytes. */
  constructor(
    private readonly parser: FrameParser<F>,
    chunks: AsyncIterable<Buffer>,
    private readonly reader: FrameReader<F, T>,
  ) {
    this.body = chunks[Symbol.asyncIterator]();
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
      if (this.lastAsked) {
        this.over = true;
        return Promise.resolve(END);
      }
      while (this.index < this.frames.length && !reader.complete()) {
        const item = reader.read(this.frames.at(this.index++));
        if (item !== null) return Promise.resolve({ done: false, value: item });
      }
      if (!reader.complete() && !this.bodyEnded) return this.body.next().then(this.onChunk, this.onBodyError);
      this.lastAsked = true;
      if (!this.bodyEnded) void drainRest(this.body);
      const last = reader.last(this.bodyEnded);
      if (last !== null) return Promise.resolve({ done: false, value: last });
      return this.next(); // what `more` holds, then the end
    } catch (err) {
      return this.failed(err);
    }
  }

  /** The caller stopped early: close the body, as a for-await over a generator would. */
  async return(): Promise<IteratorResult<T, void>> {
    if (!this.over) {
      this.over = true;
      if (!this.bodyEnded && !this.lastAsked) await this.body.return?.();
    }
    return END;
  }

  private async failed(err: unknown): Promise<never> {
    this.over = true;
    if (!this.bodyEnded && !this.lastAsked) await this.body.return?.();
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
