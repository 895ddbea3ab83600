import { SHARED_SAMPLING_FIELDS, splitRequestFields, type CanonicalCompletionRequest } from '../canonical/index.js';
import type { ChatRequestBody, CompletionRequestBody } from './request-schema.js';

export type CallKind = 'chat' | 'completion';
export type ModelCallBody = ChatRequestBody | CompletionRequestBody;

const COMPLETION_TYPED: ReadonlySet<string> = new Set<string>([...SHARED_SAMPLING_FIELDS, 'model', 'prompt', 'stream']);

/** Legacy completions body → canonical request (typed fields copied, the rest forwarded in `extra`). */
export function toCanonicalCompletionRequest(
  body: CompletionRequestBody,
  upstreamModel: string,
): CanonicalCompletionRequest {
  const { typed: out, extra } = splitRequestFields(body, COMPLETION_TYPED);
  return {
    ...(out as Omit<CanonicalCompletionRequest, 'model' | 'extra' | 'prompt'>),
    prompt: body.prompt,
    model: upstreamModel,
    extra,
  };
}
