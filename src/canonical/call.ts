import type { CanonicalChatRequest } from './chat-request.js';
import type { CanonicalChatResponse } from './chat-response.js';
import type { CanonicalChunk } from './chunk.js';
import type {
  CanonicalCompletionChunk,
  CanonicalCompletionRequest,
  CanonicalCompletionResponse,
} from './completion.js';
import type { CanonicalEmbeddingsRequest, CanonicalEmbeddingsResponse } from './embeddings.js';
import type { CallKind } from './model-call.js';
import type { CanonicalUsage } from './usage.js';

/** Per kind: the canonical request an adapter takes, its answer, and its stream events. */
export interface KindTypes {
  chat: { request: CanonicalChatRequest; answer: CanonicalChatResponse; chunk: CanonicalChunk };
  completion: {
    request: CanonicalCompletionRequest;
    answer: CanonicalCompletionResponse;
    chunk: CanonicalCompletionChunk;
  };
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
