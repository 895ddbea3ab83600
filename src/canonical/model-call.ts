import type { EmbeddingsRequestBody } from './embeddings-schema.js';
import type { MessagesRequestBody } from './messages-request-schema.js';
import type { ChatRequestBody, CompletionRequestBody } from './request-schema.js';

/** What a model call asks for; each kind has its own strategy in the gateway (src/gateway/kinds). */
export type CallKind = 'chat' | 'completion' | 'messages' | 'embeddings';

/** A decoded model call: the kind and its canonical body, whatever wire format it arrived in. */
export type ModelCall =
  | { kind: 'chat'; body: ChatRequestBody }
  | { kind: 'completion'; body: CompletionRequestBody }
  /** An Anthropic Messages body, kept as written so an Anthropic upstream receives it natively. */
  | { kind: 'messages'; body: MessagesRequestBody }
  | { kind: 'embeddings'; body: EmbeddingsRequestBody };

/** The call of one kind. */
export type CallOf<K extends CallKind> = Extract<ModelCall, { kind: K }>;

/** The canonical body of one kind. */
export type BodyOf<K extends CallKind> = CallOf<K>['body'];

/** A decoded call of a known kind, as a codec hands it to the gateway. */
export interface DecodedCall<K extends CallKind> {
  kind: K;
  body: BodyOf<K>;
}
