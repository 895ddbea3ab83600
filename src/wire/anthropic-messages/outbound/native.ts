import type {
  CanonicalChatResponse,
  CanonicalChunk,
  NativeEvent,
  NativeUpstreamRequest,
} from '../../../canonical/index.js';
import { errors } from '../../../errors/index.js';
import { fromHttpStatus, protocolError, SseItemStream, type EventSource } from '../../../upstream/index.js';
import type { ClosableIterator } from '../../primed-stream.js';
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

/**
 * The chunks of an Anthropic SSE stream (Anthropic and Vertex AI): each event read as it arrives,
 * without a generator between the body and the caller (SseItemStream).
 */
export function nativeChunks(
  res: EventSource,
  providerId: string,
  apiKey: string | null,
  model: string,
): ClosableIterator<CanonicalChunk> {
  const messages = new MessagesEventReader({ providerId, apiKey, model });
  return new SseItemStream<CanonicalChunk>(res, {
    read: (sse) => {
      const event = readNativeEvent(sse, providerId);
      return event === null ? null : messages.read(event);
    },
    complete: () => messages.stopped,
    last: () => messages.end(),
  });
}

/**
 * One Messages stream's events → canonical chunks, one each, whatever framing carried them (SSE
 * here, the AWS event stream of Bedrock's InvokeModelWithResponseStream): an
 * `error` event throws UpstreamError; a chunk's usage is the whole usage so far, on the events
 * that report it; the stream is complete at `message_stop`.
 */
export class MessagesEventReader {
  private counts: AnthropicUsageCounts = ZERO_USAGE;
  private id = '';
  private readonly created = nowSeconds();
  /** `message_stop` was read. */
  stopped = false;

  constructor(private readonly at: { providerId: string; apiKey: string | null; model: string }) {}

  read(event: NativeEvent): CanonicalChunk {
    const { event: type, data } = event;
    if (type === 'error') {
      const error = isRecord(data.error) ? data.error : {};
      const errType = str(error.type) ?? null;
      throw fromHttpStatus({
        kind: 'stream',
        providerId: this.at.providerId,
        apiKey: this.at.apiKey,
        upstreamStatus: anthropicErrorStatus(errType),
        upstreamMessage: str(error.message) ?? null,
        providerCode: errType,
      });
    }
    let finish: string | null = null;
    const chunk = nativeChunk(
      { id: this.id, created: this.created, model: this.at.model },
      'anthropic-messages',
      event,
      eventText(data),
    );
    if (type === 'message_start' && isRecord(data.message)) {
      chunk.id = this.id = str(data.message.id) ?? this.id;
      this.counts = readUsage(data.message.usage, this.counts);
      chunk.usage = canonicalUsage(this.counts);
    } else if (type === 'message_delta') {
      this.counts = readUsage(data.usage, this.counts);
      chunk.usage = canonicalUsage(this.counts);
      if (isRecord(data.delta)) finish = finishReason(str(data.delta.stop_reason));
    } else if (type === 'message_stop') this.stopped = true;
    if (finish !== null && chunk.choices[0] !== undefined) chunk.choices[0].finish_reason = finish;
    return chunk;
  }

  /** The source ended: a stream without `message_stop` is a protocol error. */
  end(): null {
    if (!this.stopped) throw protocolError(this.at.providerId, 'Provider stream ended before message_stop');
    return null;
  }
}
