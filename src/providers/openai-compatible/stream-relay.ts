import type { CanonicalUsage } from '../../canonical/index.js';
import { protocolError, type UpstreamResponse } from '../../upstream/index.js';
import type { JsonRecord } from '../json.js';
import type { ProviderEndpointConfig } from '../types.js';
import { openAiSseData } from './sse-data.js';

/** Identity of the stream's chunks, updated from each upstream event. */
export interface RelayMeta {
  id: string;
  model: string;
  created: number;
}

/** What one upstream event contributes: a chunk to pass on (null: nothing to say), usage, text, a finish. */
export interface RelayStep<T> {
  chunk: T | null;
  usage: CanonicalUsage | null;
  text: string;
  finished: boolean;
}

/**
 * The one loop behind OpenAI-compatible chat and legacy-completion streams: reads the upstream's
 * SSE data, passes each event's chunk on, holds usage back for the last chunk (counted by us from
 * the streamed text when the upstream sent none), and calls a stream that ends before any finish
 * reason and without [DONE] a protocol error.
 */
export async function* relayOpenAiStream<T>(options: {
  res: UpstreamResponse;
  endpoint: ProviderEndpointConfig;
  meta: RelayMeta;
  step: (event: JsonRecord, meta: RelayMeta) => RelayStep<T>;
  last: (meta: RelayMeta, usage: CanonicalUsage | null, output: string) => T;
}): AsyncGenerator<T, void, undefined> {
  const { endpoint, meta } = options;
  let usage: CanonicalUsage | null = null;
  let sawFinish = false;
  let output = '';
  const data = openAiSseData(options.res, endpoint);
  try {
    for (;;) {
      const next = await data.next();
      if (next.done === true) {
        if (!next.value && !sawFinish) throw protocolError(endpoint.providerId, 'Provider stream ended before completion');
        break;
      }
      const step = options.step(next.value, meta);
      usage = step.usage ?? usage;
      output += step.text;
      if (step.finished) sawFinish = true;
      if (step.chunk !== null) yield step.chunk;
    }
  } finally {
    await data.return(false);
  }
  yield options.last(meta, usage, output);
}
