import { isRecord, str, type JsonRecord } from '../../canonical/json.js';
import { AwsItemStream, protocolError, type AwsEventSource } from '../../upstream/index.js';
import { utf8Text, type AwsEventMessage } from '../../upstream/framing/aws-eventstream.js';
import type { CanonicalChunk, NativeEvent } from '../../canonical/index.js';
import { MessagesEventReader } from '../anthropic-messages/outbound/native.js';
import type { ClosableIterator } from '../primed-stream.js';
import { bedrockStreamError } from '../bedrock-converse/error-body.js';

/**
 * Claude on Bedrock through InvokeModel / InvokeModelWithResponseStream: the body is a Messages
 * body without `model` (the model is in the path) and `stream` (the operation says it), with
 * Bedrock's `anthropic_version` and the client's `anthropic-beta` values that Bedrock knows as
 * `anthropic_beta`.
 * The answer is Anthropic's own JSON; the stream is Anthropic's events, each base64'd inside the
 * `bytes` of an event-stream `chunk` message.
 */

export const BEDROCK_ANTHROPIC_VERSION = 'bedrock-2023-05-31';

/** Bedrock's per-call metrics ride on the last event; the client gets Anthropic's event as is. */
const BEDROCK_METRICS = 'amazon-bedrock-invocationMetrics';

/**
 * The beta flags Bedrock takes for Claude. Bedrock refuses a whole call for one flag it does not
 * know (`invalid beta flag`), and clients written for Anthropic's API send several (Claude Code's
 * own `claude-code-…`, `fine-grained-tool-streaming-…`, `oauth-…`): those are left out.
 */
export const BEDROCK_BETAS: ReadonlySet<string> = new Set([
  'computer-use-2024-10-22',
  'computer-use-2025-01-24',
  'token-efficient-tools-2025-02-19',
  'interleaved-thinking-2025-05-14',
  'output-128k-2025-02-19',
  'dev-full-thinking-2025-05-14',
  'context-1m-2025-08-07',
  'context-management-2025-06-27',
  'effort-2025-11-24',
  'tool-search-tool-2025-10-19',
  'tool-examples-2025-10-29',
]);

export function invokeAnthropicBody(
  body: JsonRecord,
  forwarded: Readonly<Record<string, string>> | undefined,
): JsonRecord {
  const out: JsonRecord = {};
  for (const [key, value] of Object.entries(body)) if (key !== 'model' && key !== 'stream') out[key] = value;
  out.anthropic_version = BEDROCK_ANTHROPIC_VERSION;
  const own = Array.isArray(body.anthropic_beta) ? body.anthropic_beta.filter((v) => typeof v === 'string') : [];
  const header = (forwarded?.['anthropic-beta'] ?? '').split(',').map((v) => v.trim());
  const betas = [...new Set([...own, ...header].filter((v) => BEDROCK_BETAS.has(v)))];
  if (betas.length > 0) out.anthropic_beta = betas;
  else delete out.anthropic_beta;
  return out;
}

/**
 * InvokeModelWithResponseStream → chunks of Anthropic's native events (usage read, `error` thrown),
 * read message by message; complete at `message_stop`, as Anthropic's own stream.
 */
export function invokeAnthropicChunks(
  res: AwsEventSource,
  at: { providerId: string; apiKey: string | null; model: string },
): ClosableIterator<CanonicalChunk> {
  const messages = new MessagesEventReader(at);
  return new AwsItemStream<CanonicalChunk>(res, {
    read: (message) => {
      const event = invokeEvent(message, at.providerId, at.apiKey);
      return event === null ? null : messages.read(event);
    },
    complete: () => messages.stopped,
    last: () => messages.end(),
  });
}

/** The Anthropic event inside one `chunk` message (null for other messages); an exception message throws. */
function invokeEvent(message: AwsEventMessage, providerId: string, apiKey: string | null): NativeEvent | null {
  if (message.messageType !== 'event')
    throw bedrockStreamError({ type: message.type, body: message.body, providerId, apiKey });
  if (message.type !== 'chunk') return null;
  let data: unknown;
  try {
    const frame = JSON.parse(utf8Text(message.body)) as unknown;
    const bytes = isRecord(frame) ? str(frame.bytes) : undefined;
    if (bytes === undefined) return null;
    data = JSON.parse(Buffer.from(bytes, 'base64').toString('utf8')) as unknown;
  } catch (error) {
    throw protocolError(providerId, 'Provider sent an invalid stream event', error);
  }
  if (!isRecord(data)) return null;
  delete data[BEDROCK_METRICS];
  return { event: str(data.type) ?? 'message', data };
}
