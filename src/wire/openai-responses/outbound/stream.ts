import type { CanonicalChunk } from '../../../canonical/index.js';
import { isRecord, nowSeconds, str, type JsonRecord } from '../../../canonical/json.js';
import {
  fromHttpStatus,
  protocolError,
  SseItemStream,
  type EventSource,
  type SseEvent,
  type SseStreamReader,
} from '../../../upstream/index.js';
import type { ClosableIterator } from '../../primed-stream.js';
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
export function nativeResponseChunks(
  res: EventSource,
  providerId: string,
  apiKey: string | null,
  model: string,
): ClosableIterator<CanonicalChunk> {
  return new SseItemStream(res, new ResponsesEventReader(providerId, apiKey, model));
}

/** One native Responses stream's reading (SseItemStream drives it, one event at a time). */
class ResponsesEventReader implements SseStreamReader<CanonicalChunk> {
  private id = '';
  private ended = false;
  private readonly created = nowSeconds();

  constructor(
    private readonly providerId: string,
    private readonly apiKey: string | null,
    private readonly model: string,
  ) {}

  read(sse: SseEvent): CanonicalChunk | null {
    if (sse.data === '[DONE]') return null;
    const event = readNativeEvent(sse, this.providerId);
    if (event === null) return null;
    const { event: type, data } = event;
    if (type === 'error') throw streamError(data, this.providerId, this.apiKey);
    const response: JsonRecord | null = isRecord(data.response) ? data.response : null;
    if (response !== null) this.id = str(response.id) ?? this.id;
    const text = TEXT_DELTAS.has(type) ? (str(data.delta) ?? '') : '';
    const chunk = nativeChunk(
      { id: this.id, created: this.created, model: this.model },
      'openai-responses',
      event,
      text,
    );
    if (TERMINAL.has(type) && response !== null) {
      this.ended = true;
      const choice = chunk.choices[0];
      if (choice !== undefined) {
        choice.finish_reason = responseFinish(response) ?? 'stop';
        choice.native_finish_reason = str(response.status) ?? null;
      }
      const usage = responsesUsage(response.usage);
      if (usage !== null) chunk.usage = usage;
    }
    return chunk;
  }

  complete(): boolean {
    return this.ended;
  }

  last(): null {
    if (!this.ended) throw protocolError(this.providerId, 'Provider stream ended before the response completed');
    return null;
  }
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
