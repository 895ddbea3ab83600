import { EventStreamCodec } from '@smithy/eventstream-codec';

const codec = new EventStreamCodec(
  (bytes: Uint8Array) => Buffer.from(bytes).toString('utf8'),
  (text: string) => new Uint8Array(Buffer.from(text, 'utf8')),
);

/** One `application/vnd.amazon.eventstream` message of `:message-type event` with a JSON payload. */
export function eventFrame(eventType: string, payload: unknown): Uint8Array {
  return codec.encode({
    headers: {
      ':event-type': { type: 'string', value: eventType },
      ':content-type': { type: 'string', value: 'application/json' },
      ':message-type': { type: 'string', value: 'event' },
    },
    body: new Uint8Array(Buffer.from(JSON.stringify(payload), 'utf8')),
  });
}

/** An in-stream exception (`:message-type exception`), as Bedrock sends a mid-stream failure. */
export function exceptionFrame(exceptionType: string, message: string): Uint8Array {
  return codec.encode({
    headers: {
      ':exception-type': { type: 'string', value: exceptionType },
      ':content-type': { type: 'string', value: 'application/json' },
      ':message-type': { type: 'string', value: 'exception' },
    },
    body: new Uint8Array(Buffer.from(JSON.stringify({ message }), 'utf8')),
  });
}
