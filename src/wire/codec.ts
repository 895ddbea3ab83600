import type { AcceptedCall, AnswerOf, CallKind, ChunkOf, DecodedCall } from '../canonical/index.js';
import type { GatewayError } from '../errors/index.js';
import type { ApiType } from './index.js';

/**
 * Where a codec writes a stream's events (the HTTP edge's SSE writer): each returns a promise
 * only when the client needs a drain (backpressure).
 */
export interface EventWriter {
  /** One `data:` event. */
  data(payload: string): Promise<void> | undefined;
  /** A named event (`event: <name>` then its data). */
  event(name: string, payload: string): Promise<void> | undefined;
  /** Ends the stream with `data: [DONE]`, or with `trailer` when given. */
  end(trailer?: string): void;
}

/**
 * One inbound wire format of a model-call route: decodes the validated body into a canonical
 * call and encodes what the gateway answers back into the wire format. Adding an API surface
 * is a codec (plus, when its calls are not chats or completions, a kind in src/gateway/kinds).
 */
export interface Codec<K extends CallKind, Body> {
  /** Recorded on each generation (`api_type`). */
  readonly apiType: ApiType;
  decode(body: Body): DecodedCall<K>;
  /** The JSON body of a non-streamed answer. */
  answer(value: AnswerOf<K>): unknown;
  /** Writes one stream event; returns a promise only under backpressure. */
  chunk(writer: EventWriter, chunk: ChunkOf<K>): Promise<void> | undefined;
  /** Writes an error that happened after the stream started, in-band. */
  streamError(
    writer: EventWriter,
    error: GatewayError,
    at: { call: AcceptedCall; model: string },
  ): Promise<void> | undefined;
  /** Ends the stream (e.g. `data: [DONE]`). */
  endStream(writer: EventWriter): void;
}
