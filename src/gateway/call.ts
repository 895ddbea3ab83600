import type {
  CallKind,
  DecodedCall,
  CanonicalChatRequest,
  CanonicalChatResponse,
  CanonicalChunk,
  CanonicalCompletionChunk,
  CanonicalCompletionRequest,
  CanonicalCompletionResponse,
  CanonicalEmbeddingsRequest,
  CanonicalEmbeddingsResponse,
  CanonicalUsage,
} from '../canonical/index.js';
import type { ApiType } from '../domain/accounting/types.js';
import type {
  MessagesCallAnswer,
  MessagesCallChunk,
  MessagesCallRequest,
} from '../providers/anthropic/inbound/kind-types.js';
import type { KeyRecord } from '../domain/keys/types.js';
import type { GatewayError } from '../errors/index.js';
import type { TraceHeaders } from './call-tracer.js';
import type { CallerInfo } from './caller.js';

/** Per kind: the canonical request an adapter takes, its answer, and its stream events. */
export interface KindTypes {
  chat: { request: CanonicalChatRequest; answer: CanonicalChatResponse; chunk: CanonicalChunk };
  completion: {
    request: CanonicalCompletionRequest;
    answer: CanonicalCompletionResponse;
    chunk: CanonicalCompletionChunk;
  };
  messages: { request: MessagesCallRequest; answer: MessagesCallAnswer; chunk: MessagesCallChunk };
  /** Never streamed: no chunk type. */
  embeddings: { request: CanonicalEmbeddingsRequest; answer: CanonicalEmbeddingsResponse; chunk: never };
}

/** Client-facing usage: the upstream's counts plus what the call cost. */
export type BilledUsage = CanonicalUsage & { cost_details: Record<string, number | null> };

/**
 * An answer or chunk after the gateway relabelled it: our generation id, the catalog slug that
 * served it, the provider's name, and usage with cost. Same object, keys in the same places.
 */
export type Relabelled<T> = T & { provider?: string };
export type AnswerOf<K extends CallKind> = Relabelled<KindTypes[K]['answer']>;
export type ChunkOf<K extends CallKind> = Relabelled<KindTypes[K]['chunk']>;

/** What the edge learns once the gateway accepted a call (it will be settled and logged from now on). */
export interface AcceptedCall {
  kind: CallKind;
  generationId: string;
  requestId: string;
  /** Content-filter flags (e.g. prompt injection) the answer reports in a header. */
  flags: readonly string[];
  stream: boolean;
}

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
