import { EventStreamCodec } from '@smithy/eventstream-codec';
import { FrameBatch, type EventPacedBody, type FrameParser } from './frame-batch.js';
import { protocolError } from '../upstream-error.js';

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

/** A message body's (or header's) bytes as text, read in place. */
export function utf8Text(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
}

const codec = new EventStreamCodec(utf8Text, (text: string) => new Uint8Array(Buffer.from(text, 'utf8')));

/**
 * The binary event-stream framing of AWS (Bedrock's ConverseStream and
 * InvokeModelWithResponseStream): length-prefixed messages with CRC32 checks, decoded by Smithy's
 * codec, incrementally: the whole messages each body chunk completes, in one batch it refills.
 * Bytes are buffered only up to one message; a message whose declared length exceeds
 * `maxEventBytes` is refused before it is read, and a body that ends inside a message is a
 * truncated stream (EventStreamError).
 */
export class AwsEventParser implements FrameParser<AwsEventMessage> {
  private parts: Buffer[] = [];
  private size = 0;
  private readonly batch = new FrameBatch<AwsEventMessage>();

  constructor(private readonly maxEventBytes: number) {}

  push(chunk: Uint8Array): FrameBatch<AwsEventMessage> {
    this.batch.clear();
    if (chunk.byteLength === 0) return this.batch;
    this.parts.push(Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength));
    this.size += chunk.byteLength;
    while (this.size >= 4) {
      const total = declaredLength(this.parts);
      if (total < MIN_MESSAGE_BYTES)
        throw new EventStreamError('corrupt', `event-stream message declares ${total} bytes`);
      if (total > this.maxEventBytes) {
        throw new EventStreamError('too_large', `event-stream message of ${total} bytes exceeds ${this.maxEventBytes}`);
      }
      if (this.size < total) break;
      const all = this.parts.length === 1 ? (this.parts[0] as Buffer) : Buffer.concat(this.parts, this.size);
      const rest = all.subarray(total);
      this.parts = rest.length === 0 ? [] : [rest];
      this.size = rest.length;
      this.batch.add(toMessage(all.subarray(0, total)));
    }
    return this.batch;
  }

  /** No message ends with the body: throws when the body ended inside one. */
  end(): FrameBatch<AwsEventMessage> {
    this.batch.clear();
    if (this.size > 0)
      throw new EventStreamError('truncated', `event stream ended inside a message (${this.size} bytes pending)`);
    return this.batch;
  }
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
  const decodedHeaders = decoded.headers;
  for (const name in decodedHeaders) {
    const value = decodedHeaders[name]?.value;
    headers[name] = typeof value === 'string' ? value : String(value);
  }
  const messageType = headers[':message-type'] ?? 'event';
  const type =
    messageType === 'exception'
      ? (headers[':exception-type'] ?? '')
      : messageType === 'error'
        ? (headers[':error-code'] ?? '')
        : (headers[':event-type'] ?? '');
  return { messageType, type, headers, body: decoded.body.slice() };
}

/**
 * The event-stream parser of one upstream body, as `UpstreamSseParser` is for SSE: idle time
 * counts between completed messages, and a malformed, oversized or cut stream is the upstream's
 * protocol error (502, or an error chunk once streaming). An oversized message fails the exchange
 * and frees its socket at once, before its bytes are read.
 */
export class UpstreamAwsEventParser implements FrameParser<AwsEventMessage> {
  private readonly parser: AwsEventParser;

  constructor(
    private readonly body: EventPacedBody,
    private readonly providerId: string,
    maxEventBytes: number,
  ) {
    this.parser = new AwsEventParser(maxEventBytes);
  }

  push(chunk: Uint8Array): FrameBatch<AwsEventMessage> {
    try {
      const batch = this.parser.push(chunk);
      if (batch.length > 0) this.body.progress();
      return batch;
    } catch (error) {
      throw this.failure(error);
    }
  }

  end(): FrameBatch<AwsEventMessage> {
    try {
      return this.parser.end();
    } catch (error) {
      throw this.failure(error);
    }
  }

  private failure(error: unknown): unknown {
    if (!(error instanceof EventStreamError)) return error;
    const err = protocolError(this.providerId, `Provider sent a bad event stream: ${error.reason}`, error);
    if (error.reason === 'too_large') this.body.abortWith(err);
    return err;
  }
}
