import type { EmbeddingsRequestBody } from './embeddings-schema.js';
import type { NativeRequest } from './native.js';
import type { ChatRequestBody, CompletionRequestBody } from './request-schema.js';

/** What a model call asks for; each kind has its own strategy in the gateway (src/gateway/kinds). */
export type CallKind = 'chat' | 'completion' | 'embeddings';

/** A decoded model call: the kind and its canonical body, whatever wire format it arrived in. */
export type ModelCall =
  | { kind: 'chat'; body: ChatRequestBody }
  | { kind: 'completion'; body: CompletionRequestBody }
  | { kind: 'embeddings'; body: EmbeddingsRequestBody };

/** The call of one kind. */
export type CallOf<K extends CallKind> = Extract<ModelCall, { kind: K }>;

/** The canonical body of one kind. */
export type BodyOf<K extends CallKind> = CallOf<K>['body'];

/** A decoded call of a known kind, as a codec hands it to the gateway. */
export interface DecodedCall<K extends CallKind> {
  kind: K;
  body: BodyOf<K>;
  /**
   * The client's body, kept for candidates that speak its dialect (a chat decoded from Messages
   * or Responses); absent when the format is the canonical one.
   */
  native?: NativeRequest;
}
