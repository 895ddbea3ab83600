import type { UpstreamError } from '../upstream-error.js';

/**
 * The frames (SSE events, AWS event-stream messages) one body chunk completed. An upstream body's
 * parser refills one batch for every chunk (slots are overwritten, not reallocated), so a stream
 * allocates no array per chunk.
 */
export class FrameBatch<F> {
  private readonly frames: F[] = [];
  private count = 0;

  get length(): number {
    return this.count;
  }

  /** The `i`-th frame, for `0 <= i < length`. */
  at(i: number): F {
    return this.frames[i] as F;
  }

  add(frame: F): void {
    this.frames[this.count++] = frame;
  }

  clear(): void {
    this.count = 0;
  }
}

/** What an upstream body offers the parser of its frames. */
export interface EventPacedBody {
  /** A frame (or an SSE comment) was completed: idle time counts from now. */
  progress(): void;
  /** Ends the exchange with this error and frees its socket. */
  abortWith(err: UpstreamError): void;
}

/** An upstream body's incremental parser: the frames each chunk completes, in its one batch. */
export interface FrameParser<F> {
  /** The frames this chunk completed (throws the exchange's UpstreamError on a bad or oversized frame). */
  push(chunk: Uint8Array): FrameBatch<F>;
  /** The frames the body's end completed (throws when the body ended inside a frame the framing cannot end). */
  end(): FrameBatch<F>;
}
