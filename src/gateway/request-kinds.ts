import { SHARED_SAMPLING_FIELDS, type CanonicalCompletionRequest } from '../canonical/index.js';
import { GATEWAY_ONLY_FIELDS } from '../canonical/chat-request.js';
import type { ChatRequestBody, CompletionRequestBody } from './request-schema.js';

export type CallKind = 'chat' | 'completion';
export type ModelCallBody = ChatRequestBody | CompletionRequestBody;

const COMPLETION_TYPED: ReadonlySet<string> = new Set<string>([...SHARED_SAMPLING_FIELDS, 'model', 'prompt', 'stream']);

/** Legacy completions body → canonical request (typed fields copied, the rest forwarded in `extra`). */
export function toCanonicalCompletionRequest(body: CompletionRequestBody, upstreamModel: string): CanonicalCompletionRequest {
  const out: Record<string, unknown> = {};
  const extra: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(body)) {
    if (value === undefined) continue;
    if (COMPLETION_TYPED.has(key)) out[key] = value;
    else if (!GATEWAY_ONLY_FIELDS.has(key)) extra[key] = value;
  }
  return { ...(out as Omit<CanonicalCompletionRequest, 'model' | 'extra' | 'prompt'>), prompt: body.prompt, model: upstreamModel, extra };
}
