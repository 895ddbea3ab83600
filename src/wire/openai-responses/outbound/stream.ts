import type { CanonicalChunk } from '../../../canonical/index.js';
import { isRecord, nowSeconds, str, type JsonRecord } from '../../../canonical/json.js';
import { fromHttpStatus, protocolError, upstreamEvents, type EventSource } from '../../../upstream/index.js';
import { nativeChunk, readNativeEvent } from '../../native-events.js';
import { responseFinish, responsesUsage } from './response.js';

/** Events that end a Responses stream, carrying the final response object. */
const TERMINAL: ReadonlySet<string> = new Set(['response.completed', 'response.incomplete', 'response.failed']);

/** Deltas of streamed output: the text the one usage estimate counts when no usage comes. */
const TEXT_DELTAS: ReadonlySet<string> = new Set([
  'response.output_text.delta',
  'response.refusal.delta',
  'response.function_call_arguments.delta',
  'response.custom_tool_call_input.delta',
  'response.reasoning_text.delta',
  'response.reasoning_summary_text.delta',
]);

/**
 * A native Responses stream: each upstream event becomes one canonical chunk carrying it
 * (`native`), with what the gateway reads of it: the response id (from `response.created`), the
 * streamed text, and on the terminal event the finish reason and the usage. An `error` event
 * throws UpstreamError; a stream that ends before a terminal event is a protocol error.
 */
export async function* nativeResponseChunks(
  res: EventSource,
  providerId: string,
  apiKey: string | null,
  model: string,
): AsyncGenerator<CanonicalChunk, void, undefined> {
  let id = '';
  let ended = false;
  const created = nowSeconds();
  for await (const sse of upstreamEvents(res)) {
    if (ended) continue; // drain so the socket can be reused
    if (sse.data === '[DONE]') continue;
    const event = readNativeEvent(sse, providerId);
    if (event === null) continue;
    const { event: type, data } = event;
    if (type === 'error') throw streamError(data, providerId, apiKey);
    const response: JsonRecord | null = isRecord(data.response) ? data.response : null;
    if (response !== null) id = str(response.id) ?? id;
    const text = TEXT_DELTAS.has(type) ? (str(data.delta) ?? '') : '';
    const chunk = nativeChunk({ id, created, model }, 'openai-responses', event, text);
    if (TERMINAL.has(type) && response !== null) {
      ended = true;
      const choice = chunk.choices[0];
      if (choice !== undefined) {
        choice.finish_reason = responseFinish(response) ?? 'stop';
        choice.native_finish_reason = str(response.status) ?? null;
      }
      const usage = responsesUsage(response.usage);
      if (usage !== null) chunk.usage = usage;
    }
    yield chunk;
  }
  if (!ended) throw protocolError(providerId, 'Provider stream ended before the response completed');
}

function streamError(data: JsonRecord, providerId: string, apiKey: string | null): Error {
  const error = isRecord(data.error) ? data.error : data;
  const code = str(error.code) ?? str(error.type) ?? null;
  return fromHttpStatus({
    kind: 'stream',
    providerId,
    apiKey,
    upstreamStatus: code === 'rate_limit_exceeded' ? 429 : 502,
    upstreamMessage: str(error.message) ?? null,
    providerCode: code,
  });
}
