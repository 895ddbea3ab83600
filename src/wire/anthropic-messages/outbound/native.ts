import type { CanonicalUsage } from '../../../canonical/index.js';
import { eventJson, fromHttpStatus, upstreamEvents, protocolError, type EventSource } from '../../../upstream/index.js';
import { isRecord, str, type JsonRecord } from '../../../canonical/json.js';
import { canonicalUsage, readUsage, ZERO_USAGE, type AnthropicUsageCounts } from './response.js';
import { anthropicErrorStatus } from './error-body.js';

/**
 * Native pass-through of the Messages API: a client's Messages body goes to an Anthropic upstream
 * as it was written (only `model` and `stream` set by us), so every field the upstream knows
 * (cache_control anywhere, thinking signatures, server tools, betas' fields) survives; the answer
 * and the events come back as Anthropic sent them, with the usage read for metering.
 */

/** A Messages answer as the upstream sent it, with its usage in canonical counts. */
export interface NativeMessage {
  message: JsonRecord;
  usage: CanonicalUsage;
}

/** One upstream event, its data parsed; `usage` is the whole usage so far when the event carried some. */
export interface NativeEvent {
  event: string;
  data: JsonRecord;
  usage?: CanonicalUsage;
}

/** A non-streamed native answer, read for metering; a body without content is a protocol error. */
export function readNativeMessage(message: unknown, providerId: string): NativeMessage {
  if (!isRecord(message) || !Array.isArray(message.content))
    throw protocolError(providerId, 'Provider returned a body without content');
  return { message, usage: canonicalUsage(readUsage(message.usage, ZERO_USAGE)) };
}

/** The upstream's events, ending after `message_stop`; an `error` event throws UpstreamError. */
export async function* nativeEvents(
  res: EventSource,
  providerId: string,
  apiKey: string | null,
): AsyncGenerator<NativeEvent, void, undefined> {
  yield* nativeEventsOf(parsedSse(res, providerId), providerId, apiKey);
}

async function* parsedSse(res: EventSource, providerId: string): AsyncGenerator<{ event?: string; data: unknown }> {
  for await (const sse of upstreamEvents(res)) {
    yield { event: sse.event, data: eventJson(sse, providerId) };
  }
}

/**
 * Messages events already parsed, whatever framing carried them (SSE from Anthropic, the AWS
 * event stream of Bedrock's InvokeModelWithResponseStream): usage read for metering, ending after
 * `message_stop` (later events are drained), an `error` event thrown as UpstreamError.
 */
export async function* nativeEventsOf(
  source: AsyncIterable<{ event?: string | undefined; data: unknown }>,
  providerId: string,
  apiKey: string | null,
): AsyncGenerator<NativeEvent, void, undefined> {
  let counts: AnthropicUsageCounts = ZERO_USAGE;
  let stopped = false;
  for await (const { event, data } of source) {
    if (stopped) continue; // drain so the socket can be reused
    if (!isRecord(data)) continue;
    const type = str(data.type) ?? event ?? 'message';
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
    const out: NativeEvent = { event: type, data };
    if (type === 'message_start' && isRecord(data.message)) {
      counts = readUsage(data.message.usage, counts);
      out.usage = canonicalUsage(counts);
    } else if (type === 'message_delta') {
      counts = readUsage(data.usage, counts);
      out.usage = canonicalUsage(counts);
    } else if (type === 'message_stop') stopped = true;
    yield out;
  }
  if (!stopped) throw protocolError(providerId, 'Provider stream ended before message_stop');
}
