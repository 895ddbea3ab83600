import { splitRequestFields } from './chat-request.js';
import { TYPED_COMPLETION_FIELDS, type CompletionRequestBody, type SamplingParameters } from './request-schema.js';
import type { CanonicalUsage } from './usage.js';

/** Legacy `POST /completions`. `model` is the upstream name. */
export interface CanonicalCompletionRequest extends SamplingParameters {
  model: string;
  prompt: string | string[];
  stream?: boolean;
  extra: Record<string, unknown>;
}

export interface CanonicalCompletionChoice {
  text: string;
  index: number;
  /** Usually a `FinishReason`; open, since upstreams add their own. */
  finish_reason: string | null;
  logprobs?: unknown;
}

export interface CanonicalCompletionResponse {
  id: string;
  object: 'text_completion';
  created: number;
  model: string;
  choices: CanonicalCompletionChoice[];
  usage: CanonicalUsage;
}

/** A legacy completion stream event: same shape as the response, text deltas; usage last. */
export interface CanonicalCompletionChunk {
  id: string;
  object: 'text_completion';
  created: number;
  model: string;
  choices: CanonicalCompletionChoice[];
  usage?: CanonicalUsage;
}

const TYPED: ReadonlySet<string> = new Set(TYPED_COMPLETION_FIELDS);

/** Legacy completions body → canonical request (typed fields copied, the rest forwarded in `extra`). */
export function toCanonicalCompletionRequest(
  body: CompletionRequestBody,
  upstreamModel: string,
): CanonicalCompletionRequest {
  const { typed: out, extra } = splitRequestFields(body, TYPED);
  // Written onto the split's own record (no spread copy): the same keys in the same order.
  out.prompt = body.prompt;
  out.model = upstreamModel;
  out.extra = extra;
  return out as unknown as CanonicalCompletionRequest;
}
