import type { CanonicalUsage } from '../../../canonical/index.js';
import {
  protocolError,
  SseEventBatch,
  type UpstreamResponse,
  type UpstreamSseParser,
} from '../../../upstream/index.js';
import type { JsonRecord } from '../../../canonical/json.js';
import type { ProviderEndpointConfig } from '../../adapter.js';
import type { ClosableIterator } from '../../primed-stream.js';
import { DONE_EVENT, openAiPayload } from './sse-data.js';

/** Identity of the stream's chunks, updated from each upstream event. */
export interface RelayMeta {
  id: string;
  model: string;
  created: number;
}

/** What one upstream event contributes: a chunk to pass on (null: nothing to say), usage, a finish. */
export interface RelayStep<T> {
  chunk: T | null;
  usage: CanonicalUsage | null;
  finished: boolean;
}

export interface RelayOptions<T> {
  res: UpstreamResponse;
  endpoint: ProviderEndpointConfig;
  meta: RelayMeta;
  step: (event: JsonRecord, meta: RelayMeta) => RelayStep<T>;
  /** The last chunk, with the upstream's usage (null when it reported none: the gateway estimates it, once). */
  last: (meta: RelayMeta, usage: CanonicalUsage | null) => T;
}

const END: IteratorResult<never, undefined> = Object.freeze({ done: true, value: undefined });
const NO_EVENTS = new SseEventBatch();

/**
 * The one loop behind OpenAI-compatible chat and legacy-completion streams: reads the upstream's
 * SSE data, passes each event's chunk on, holds usage back for the last chunk, and calls a stream that ends before any finish
 * reason and without [DONE] a protocol error.
 *
 * At `[DONE]` the stream ends for the caller at once; the rest of the body (normally just its end)
 * is drained in the background, under the idle timer, so the socket still goes back to the pool.
 * An `{error:{…}}` payload throws an UpstreamError of kind `stream`. Stopping early (`return`) or
 * any failure closes the upstream body.
 *
 * A hand-written iterator rather than async generators: the SSE parser runs on each body chunk and
 * the events it completed are handed out one `next()` at a time, each a resolved promise — no
 * generator (and its promise and microtask hops) between the body and the caller.
 */
export function relayOpenAiStream<T>(options: RelayOptions<T>): ClosableIterator<T> {
  return new OpenAiRelay(options);
}

class OpenAiRelay<T> implements ClosableIterator<T> {
  private readonly body: AsyncIterator<Buffer>;
  private readonly parser: UpstreamSseParser;
  private events: SseEventBatch = NO_EVENTS;
  private index = 0;
  private usage: CanonicalUsage | null = null;
  private sawFinish = false;
  private sawDone = false;
  private bodyEnded = false;
  /** The last chunk went out, or the stream failed / was closed: nothing more to hand out. */
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

  constructor(private readonly o: RelayOptions<T>) {
    this.parser = o.res.sseParser();
    this.body = o.res.chunks()[Symbol.asyncIterator]();
  }

  next(): Promise<IteratorResult<T, void>> {
    if (this.over) return Promise.resolve(END);
    try {
      while (this.index < this.events.length) {
        const event = this.events.at(this.index++);
        if (this.sawDone) continue;
        const payload = openAiPayload(event, this.o.endpoint);
        if (payload === null) continue;
        if (payload === DONE_EVENT) {
          this.sawDone = true;
          continue;
        }
        const step = this.o.step(payload, this.o.meta);
        if (step.usage !== null) this.usage = step.usage;
        if (step.finished) this.sawFinish = true;
        if (step.chunk !== null) return Promise.resolve({ done: false, value: step.chunk });
      }
    } catch (err) {
      return this.failed(err);
    }
    if (this.sawDone) {
      if (!this.bodyEnded) void drainRest(this.body);
      return Promise.resolve(this.finish());
    }
    if (this.bodyEnded) {
      if (!this.sawFinish)
        return this.failed(protocolError(this.o.endpoint.providerId, 'Provider stream ended before completion'));
      return Promise.resolve(this.finish());
    }
    return this.body.next().then(this.onChunk, this.onBodyError);
  }

  /** The caller stopped early: close the body, as a for-await over a generator would. */
  async return(): Promise<IteratorResult<T, void>> {
    if (!this.over) {
      this.over = true;
      if (!this.bodyEnded && !this.sawDone) await this.body.return?.();
    }
    return END;
  }

  private finish(): IteratorResult<T, void> {
    this.over = true;
    return { done: false, value: this.o.last(this.o.meta, this.usage) };
  }

  private async failed(err: unknown): Promise<never> {
    this.over = true;
    if (!this.bodyEnded) await this.body.return?.();
    throw err;
  }
}

/** Reads what follows `[DONE]` to the end; a failure there (e.g. the upstream never closed) loses nothing. */
async function drainRest(chunks: AsyncIterator<Buffer>): Promise<void> {
  try {
    for (;;) if ((await chunks.next()).done === true) return;
  } catch {
    // idle timeout or reset after the answer was complete
  }
}
