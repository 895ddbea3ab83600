import type { CanonicalUsage } from '../../../canonical/index.js';
import {
  protocolError,
  SseItemStream,
  type SseEvent,
  type SseStreamReader,
  type UpstreamResponse,
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

/**
 * The one reading behind OpenAI-compatible chat and legacy-completion streams: passes each event's
 * chunk on, holds usage back for the last chunk, and calls a stream that ends before any finish
 * reason and without [DONE] a protocol error.
 *
 * At `[DONE]` the stream ends for the caller at once (SseItemStream drains the rest of the body in
 * the background). An `{error:{…}}` payload throws an UpstreamError of kind `stream`. Stopping
 * early (`return`) or any failure closes the upstream body.
 */
export function relayOpenAiStream<T>(options: RelayOptions<T>): ClosableIterator<T> {
  return new SseItemStream(options.res, new OpenAiReader(options));
}

class OpenAiReader<T> implements SseStreamReader<T> {
  private usage: CanonicalUsage | null = null;
  private sawFinish = false;
  private sawDone = false;

  constructor(private readonly o: RelayOptions<T>) {}

  read(event: SseEvent): T | null {
    const payload = openAiPayload(event, this.o.endpoint);
    if (payload === null) return null;
    if (payload === DONE_EVENT) {
      this.sawDone = true;
      return null;
    }
    const step = this.o.step(payload, this.o.meta);
    if (step.usage !== null) this.usage = step.usage;
    if (step.finished) this.sawFinish = true;
    return step.chunk;
  }

  complete(): boolean {
    return this.sawDone;
  }

  last(bodyEnded: boolean): T {
    if (bodyEnded && !this.sawDone && !this.sawFinish)
      throw protocolError(this.o.endpoint.providerId, 'Provider stream ended before completion');
    return this.o.last(this.o.meta, this.usage);
  }
}
