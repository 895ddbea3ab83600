import type { AcceptedCall, AnswerOf, CallKind, ChunkOf, DecodedCall } from '../canonical/index.js';
import type { ApiType } from '../wire/index.js';
import type { KeyRecord } from '../domain/keys/types.js';
import type { GatewayError } from '../errors/index.js';
import type { TraceHeaders } from './call-tracer.js';
import type { CallerInfo } from './caller.js';

export type { AcceptedCall, AnswerOf, BilledUsage, ChunkOf, KindTypes, Relabelled } from '../canonical/index.js';

/**
 * Where the answer of one accepted call goes, in the wire format of the surface it came in on.
 * The gateway calls either `answer` once (not streamed) or `begin`, then `chunk` per event;
 * `fail` at most once for an error after acceptance; and `end` last in every case but a
 * rethrowing `fail`. A sink renders errors itself: before anything was sent as a whole error
 * response (or by rethrowing it to the HTTP error handler), mid-stream as an in-band event.
 */
export interface CallSink<K extends CallKind> {
  answer(value: AnswerOf<K>): void;
  /** The upstream answered: the stream starts (stop waiting, keep-alives off). */
  begin(): void;
  /** One event; returns a promise only when the client needs a drain (backpressure). */
  chunk(chunk: ChunkOf<K>): Promise<void> | undefined;
  /** `model`: the catalog slug that was serving, or the one asked for when none answered. */
  fail(error: GatewayError, model: string): Promise<void> | undefined;
  end(): void;
}

/** One model call as the edge hands it to `Gateway.run`. */
export interface CallInput<K extends CallKind> extends DecodedCall<K> {
  key: KeyRecord;
  requestId: string;
  /** Which API surface the call came in on, recorded on its generation. */
  apiType: ApiType;
  /** The client's request headers, for its trace context (`traceparent`, `tracestate`). */
  traceHeaders?: TraceHeaders;
  /** Who is calling (user agent, session, origin, headers a native pass-through forwards). */
  caller?: CallerInfo;
  /** Fires when the client goes away: aborts the upstream request. */
  signal: AbortSignal;
  /** Called once the call is accepted: the sink for its answer (JSON or a stream, per `call.stream`). */
  open(call: AcceptedCall): CallSink<K>;
}
