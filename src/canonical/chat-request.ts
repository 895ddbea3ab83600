import { checkMessages } from './message-rules.js';
import type { ChatMessage, Tool, ToolChoice } from './messages.js';
import {
  GATEWAY_ONLY_FIELDS,
  TYPED_CHAT_FIELDS,
  type ChatMessageBody,
  type SamplingParameters,
} from './request-schema.js';

export type ReasoningEffort = 'max' | 'xhigh' | 'high' | 'medium' | 'low' | 'minimal' | 'none';

export interface ReasoningConfig {
  effort?: ReasoningEffort | null;
  summary?: 'auto' | 'concise' | 'detailed' | null;
  /** Accepted by the server though not typed in the OpenAI SDK. */
  max_tokens?: number | null;
  enabled?: boolean | null;
  exclude?: boolean | null;
}

export type ResponseFormat =
  | { type: 'text' }
  | { type: 'json_object' }
  | {
      type: 'json_schema';
      json_schema: { name: string; description?: string; schema?: Record<string, unknown>; strict?: boolean | null };
    }
  | { type: string; [key: string]: unknown };

/**
 * What a provider adapter receives. `model` is the UPSTREAM model name (already resolved by
 * routing). Typed fields are the ones adapters may translate; every other field of the client
 * body that is meant for the upstream lives in `extra` and is forwarded untouched by
 * OpenAI-compatible adapters (other wire formats ignore what they cannot express).
 */
export interface CanonicalChatRequest extends SamplingParameters {
  model: string;
  messages: ChatMessage[];
  stream?: boolean;
  max_completion_tokens?: number | null;
  logprobs?: boolean | null;
  tools?: Tool[];
  tool_choice?: ToolChoice;
  parallel_tool_calls?: boolean | null;
  response_format?: ResponseFormat;
  reasoning?: ReasoningConfig;
  reasoning_effort?: ReasoningEffort | null;
  metadata?: Record<string, string>;
  extra: Record<string, unknown>;
}

const TYPED: ReadonlySet<string> = new Set(TYPED_CHAT_FIELDS);

/**
 * Splits a client body into the fields an adapter types (`typed`) and those forwarded untouched
 * (`extra`); gateway-only fields and undefined values go nowhere. Shared by every request kind.
 */
export function splitRequestFields(
  body: Readonly<Record<string, unknown>>,
  typedFields: ReadonlySet<string>,
): { typed: Record<string, unknown>; extra: Record<string, unknown> } {
  const typed: Record<string, unknown> = {};
  const extra: Record<string, unknown> = {};
  for (const key of Object.keys(body)) {
    const value = body[key];
    if (value === undefined) continue;
    if (typedFields.has(key)) typed[key] = value;
    else if (!GATEWAY_ONLY_FIELDS.has(key)) extra[key] = value;
  }
  return { typed, extra };
}

/**
 * Builds a canonical request from a schema-validated client body (the message rules are checked
 * here, so its messages are canonical ones): copies typed fields, moves
 * the rest (minus gateway-only fields) into `extra`, and sets `model` to the upstream name.
 * The body is not mutated; values are shared (callers treat requests as immutable).
 */
export function toCanonicalChatRequest(
  body: Readonly<Record<string, unknown>> & { messages: ChatMessageBody[] },
  upstreamModel: string,
): CanonicalChatRequest {
  const messages = body.messages;
  checkMessages(messages);
  const { typed: out, extra } = splitRequestFields(body, TYPED);
  // Written onto the split's own record (no spread copy): the same keys in the same order.
  out.messages = messages;
  out.model = upstreamModel;
  out.extra = extra;
  return out as unknown as CanonicalChatRequest;
}

/** The effective output-token cap (`max_completion_tokens` wins over the deprecated `max_tokens`). */
export function maxOutputTokens(req: CanonicalChatRequest): number | null {
  const value = req.max_completion_tokens ?? req.max_tokens;
  return typeof value === 'number' && value > 0 ? value : null;
}

/** `stop` normalised to a list. */
export function stopList(req: { stop?: string | string[] | null }): string[] {
  if (req.stop === null || req.stop === undefined) return [];
  return typeof req.stop === 'string' ? [req.stop] : req.stop.filter((s) => typeof s === 'string');
}
