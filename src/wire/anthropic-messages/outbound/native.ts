import type {
  CanonicalChatResponse,
  CanonicalChunk,
  NativeEvent,
  NativeUpstreamRequest,
} from '../../../canonical/index.js';
import { errors } from '../../../errors/index.js';
import { fromHttpStatus, upstreamEvents, protocolError, type EventSource } from '../../../upstream/index.js';
import { isRecord, nowSeconds, str, type JsonRecord } from '../../../canonical/json.js';
import { canonicalUsage, finishReason, readUsage, ZERO_USAGE, type AnthropicUsageCounts } from './response.js';
import { nativeChunk, readNativeEvent } from '../../native-events.js';
import { anthropicErrorStatus } from './error-body.js';

/**
 * Native pass-through of the Messages API: a client's Messages body goes to an Anthropic upstream
 * as it was written (only `model` and `stream` set by us), so every field the upstream knows
 * (cache_control anywhere, thinking signatures, server tools, betas' fields) survives. The answer
 * and the events come back as Anthropic sent them, inside canonical answers and chunks that say
 * what the gateway reads of them: the id, the finish reason, the usage, the streamed text.
 */

/** The body of a native call to a Messages upstream: only Messages bodies are sent natively there. */
export function messagesBodyOf(req: NativeUpstreamRequest): JsonRecord {
  if (req.dialect !== 'anthropic-messages') throw errors.internal(new Error(`no native ${req.dialect} here`));
  return req.body;
}

/** A non-streamed native answer; a body without content is a protocol error. */
export function nativeMessage(
  message: unknown,
  providerId: string,
  fallback: { id: string; model: string },
): CanonicalChatResponse {
  if (!isRecord(message) || !Array.isArray(message.content))
    throw protocolError(providerId, 'Provider returned a body without content');
  const native = str(message.stop_reason) ?? null;
  return {
    id: str(message.id) ?? fallback.id,
    object: 'chat.completion',
    created: nowSeconds(),
    model: str(message.model) ?? fallback.model,
    choices: [
      {
        index: 0,
        message: { role: 'assistant', content: null, refusal: null },
        finish_reason: finishReason(native),
        native_finish_reason: native,
      },
    ],
    system_fingerprint: null,
    usage: canonicalUsage(readUsage(message.usage, ZERO_USAGE)),
    native: { dialect: 'anthropic-messages', body: message },
  };
}

/** The text an upstream event streams, for the one usage estimate when no usage comes. */
function eventText(data: JsonRecord): string {
  const delta = isRecord(data.delta) ? data.delta : null;
  if (delta === null) return '';
  return str(delta.text) ?? str(delta.partial_json) ?? str(delta.thinking) ?? '';
}

/** An SSE stream's events as native events (Anthropic's own framing). */
async function* sseEvents(res: EventSource, providerId: string): AsyncGenerator<NativeEvent, void, undefined> {
  for await (const sse of upstreamEvents(res)) {
    const event = readNativeEvent(sse, providerId);
    if (event !== null) yield event;
  }
}

/** The chunks of an Anthropic SSE stream (nativeChunksOf). */
export function nativeChunks(
  res: EventSource,
  providerId: string,
  apiKey: string | null,
  model: string,
): AsyncGenerator<CanonicalChunk, void, undefined> {
  return nativeChunksOf(sseEvents(res, providerId), { providerId, apiKey, model });
}

/**
 * Messages events already parsed, whatever framing carried them (SSE from Anthropic and Vertex AI,
 * the AWS event stream of Bedrock's InvokeModelWithResponseStream), one chunk each, ending after
 * `message_stop` (later events are drained); an `error` event throws UpstreamError. A chunk's usage
 * is the whole usage so far, on the events that report it.
 */
export async function* nativeChunksOf(
  source: AsyncIterable<NativeEvent>,
  at: { providerId: string; apiKey: string | null; model: string },
): AsyncGenerator<CanonicalChunk, void, undefined> {
  const { providerId, apiKey, model } = at;
  let counts: AnthropicUsageCounts = ZERO_USAGE;
  let stopped = false;
  let id = '';
  const created = nowSeconds();
  for await (const event of source) {
    if (stopped) continue; // drain so the socket can be reused
    const { event: type, data } = event;
    if (type === 'error') {
      const error = isRecord(data.error) ? data.error : {};
      const errType = str(error.type) ?? null;
      throw fromHttpStatus({
        kind: 'stream',
        providerId,
        apiKey,
        upstreamStatus: anthropicErrorStatus(errType),
        upstreamMessage: str(error.message) ?? null,
        providerCode: errType,
      });
    }
    let finish: string | null = null;
    const chunk = nativeChunk({ id, created, model }, 'anthropic-messages', event, eventText(data));
    if (type === 'message_start' && isRecord(data.message)) {
      chunk.id = id = str(data.message.id) ?? id;
      counts = readUsage(data.message.usage, counts);
      chunk.usage = canonicalUsage(counts);
    } else if (type === 'message_delta') {
      counts = readUsage(data.usage, counts);
      chunk.usage = canonicalUsage(counts);
      if (isRecord(data.delta)) finish = finishReason(str(data.delta.stop_reason));
    } else if (type === 'message_stop') stopped = true;
    if (finish !== null && chunk.choices[0] !== undefined) chunk.choices[0].finish_reason = finish;
    yield chunk;
  }
  if (!stopped) throw protocolError(providerId, 'Provider stream ended before message_stop');
}
