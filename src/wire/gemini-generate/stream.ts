import type { CanonicalChunk, CanonicalDelta, CanonicalUsage } from '../../canonical/index.js';
import { isRecord, nowSeconds, str, type JsonRecord } from '../../canonical/json.js';
import {
  eventJson,
  fromHttpStatus,
  protocolError,
  upstreamEvents,
  type UpstreamResponse,
} from '../../upstream/index.js';
import { googleErrorStatus } from './error-body.js';
import { finishReason, firstCandidate, geminiUsage, promptBlock, readParts } from './parts.js';

export interface GeminiStreamOptions {
  providerId: string;
  apiKey: string | null;
  fallbackId: string;
  model: string;
}

/**
 * `streamGenerateContent?alt=sse` → canonical chunks. Each event is a whole
 * `GenerateContentResponse` holding the next parts; a function call arrives whole, so it is one
 * tool-call delta with its full arguments. The piece with `finishReason` ends the answer; the
 * last chunk carries the usage of the last `usageMetadata` seen. An `{error}` event is the
 * upstream failing mid-stream.
 */
export async function* geminiChunks(
  res: UpstreamResponse,
  opts: GeminiStreamOptions,
): AsyncGenerator<CanonicalChunk, void, undefined> {
  const created = nowSeconds();
  let id = opts.fallbackId;
  let model = opts.model;
  let usage: CanonicalUsage | null = null;
  let calls = 0;
  let started = false;
  let finished = false;
  const chunk = (delta: CanonicalDelta, finish: string | null = null, native?: string): CanonicalChunk => {
    const c: CanonicalChunk = {
      id,
      object: 'chat.completion.chunk',
      created,
      model,
      choices: [{ index: 0, delta, finish_reason: finish }],
    };
    if (native !== undefined && c.choices[0] !== undefined) c.choices[0].native_finish_reason = native;
    return c;
  };
  for await (const event of upstreamEvents(res)) {
    if (finished) continue; // drain so the socket can be reused
    const data = eventJson(event, opts.providerId);
    if (data === null) continue;
    if (isRecord(data.error)) throw streamFailure(data.error, opts);
    id = started ? id : (str(data.responseId) ?? id);
    model = str(data.modelVersion) ?? model;
    usage = geminiUsage(data.usageMetadata) ?? usage;
    if (!started) {
      started = true;
      yield chunk({ role: 'assistant', content: '' });
    }
    const candidate = firstCandidate(data);
    if (candidate === null) {
      const blocked = promptBlock(data);
      if (blocked !== null) {
        finished = true;
        yield chunk({}, 'content_filter', blocked);
      }
      continue;
    }
    const read = readParts(candidate, calls);
    const delta: CanonicalDelta = {};
    if (read.text !== '') delta.content = read.text;
    if (read.reasoning !== '') delta.reasoning = read.reasoning;
    if (read.details.length > 0) delta.reasoning_details = read.details;
    if (read.calls.length > 0) {
      delta.tool_calls = read.calls.map((call, i) => ({ index: calls + i, ...call }));
      calls += read.calls.length;
    }
    if (Object.keys(delta).length > 0) yield chunk(delta);
    const native = str(candidate.finishReason);
    if (native !== undefined) {
      finished = true;
      yield chunk({}, finishReason(native, calls > 0), native);
    }
  }
  if (!finished) throw protocolError(opts.providerId, 'Provider stream ended before a finish reason');
  yield {
    id,
    object: 'chat.completion.chunk',
    created,
    model,
    choices: [],
    usage: usage ?? { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 },
  };
}

function streamFailure(error: JsonRecord, opts: GeminiStreamOptions): Error {
  return fromHttpStatus({
    kind: 'stream',
    providerId: opts.providerId,
    apiKey: opts.apiKey,
    upstreamStatus: googleErrorStatus(error),
    upstreamMessage: str(error.message) ?? null,
    providerCode: str(error.status) ?? null,
  });
}
