import type { CallKind, DecodedCall } from '../../canonical/index.js';
import type { ApiType } from '../../domain/accounting/types.js';
import type { GatewayError } from '../../errors/index.js';
import type { AcceptedCall, AnswerOf, ChunkOf } from '../../gateway/call.js';
import type { SseWriter } from '../sse-writer.js';

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
  chunk(writer: SseWriter, chunk: ChunkOf<K>): Promise<void> | undefined;
  /** Writes an error that happened after the stream started, in-band. */
  streamError(
    writer: SseWriter,
    error: GatewayError,
    at: { call: AcceptedCall; model: string },
  ): Promise<void> | undefined;
  /** Ends the stream (e.g. `data: [DONE]`). */
  endStream(writer: SseWriter): void;
}
