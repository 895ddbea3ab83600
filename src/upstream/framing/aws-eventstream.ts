import { EventStreamCodec } from '@smithy/eventstream-codec';
import type { Framing } from './types.js';

/** One message of an `application/vnd.amazon.eventstream` body. */
export interface AwsEventMessage {
  /** `:message-type`: `event`, `exception` (a modelled error) or `error`. */
  messageType: string;
  /** `:event-type` of an event, `:exception-type` of an exception, `:error-code` of an error. */
  type: string;
  /** Every header, values as strings. */
  headers: Record<string, string>;
  /** The payload (JSON for Bedrock), owned by the caller. */
  body: Uint8Array;
}

export type EventStreamFailure = 'too_large' | 'truncated' | 'corrupt';

/** The body is not a well-formed event stream (the adapter turns it into an UpstreamError). */
export class EventStreamError extends Error {
  constructor(
    readonly reason: EventStreamFailure,
    message: string,
  ) {
    super(message);
    this.name = 'EventStreamError';
  }
}

/** A message's prelude (total and header lengths, prelude CRC) plus the message CRC. */
const MIN_MESSAGE_BYTES = 16;

const codec = new EventStreamCodec(
  (bytes: Uint8Array) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8'),
  (text: string) => new Uint8Array(Buffer.from(text, 'utf8')),
);

/**
 * The binary event-stream framing of AWS (Bedrock's ConverseStream and
 * InvokeModelWithResponseStream): length-prefixed messages with CRC32 checks, decoded by
 * Smithy's codec. Bytes are buffered only up to one message; a message whose declared length
 * exceeds `maxEventBytes` is refused before it is read, and a body that ends inside a message
 * is a truncated stream.
 */
export const awsEventStreamFraming: Framing<AwsEventMessage> = {
  contentType: 'application/vnd.amazon.eventstream',
  decode: decodeAwsEventStream,
};

export async function* decodeAwsEventStream(
  body: AsyncIterable<Uint8Array>,
  limits: { maxEventBytes: number },
): AsyncIterable<AwsEventMessage> {
  let parts: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    if (chunk.byteLength === 0) continue;
    parts.push(Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength));
    size += chunk.byteLength;
    while (size >= 4) {
      const total = declaredLength(parts);
      if (total < MIN_MESSAGE_BYTES)
        throw new EventStreamError('corrupt', `event-stream message declares ${total} bytes`);
      if (total > limits.maxEventBytes) {
        throw new EventStreamError(
          'too_large',
          `event-stream message of ${total} bytes exceeds ${limits.maxEventBytes}`,
        );
      }
      if (size < total) break;
      const all = parts.length === 1 ? (parts[0] as Buffer) : Buffer.concat(parts, size);
      const rest = all.subarray(total);
      parts = rest.length === 0 ? [] : [rest];
      size = rest.length;
      yield toMessage(all.subarray(0, total));
    }
  }
  if (size > 0) throw new EventStreamError('truncated', `event stream ended inside a message (${size} bytes pending)`);
}

/** The big-endian total length in the first four bytes, which may span chunks. */
function declaredLength(parts: readonly Buffer[]): number {
  const first = parts[0] as Buffer;
  if (first.length >= 4) return first.readUInt32BE(0);
  const head = Buffer.concat(parts).subarray(0, 4);
  return head.readUInt32BE(0);
}

function toMessage(bytes: Buffer): AwsEventMessage {
  let decoded: ReturnType<typeof codec.decode>;
  try {
    decoded = codec.decode(bytes);
  } catch (error) {
    throw new EventStreamError(
      'corrupt',
      `malformed event-stream message: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  const headers: Record<string, string> = {};
  for (const [name, header] of Object.entries(decoded.headers)) headers[name] = String(header.value);
  const messageType = headers[':message-type'] ?? 'event';
  const type =
    messageType === 'exception'
      ? (headers[':exception-type'] ?? '')
      : messageType === 'error'
        ? (headers[':error-code'] ?? '')
        : (headers[':event-type'] ?? '');
  return { messageType, type, headers, body: decoded.body.slice() };
}
