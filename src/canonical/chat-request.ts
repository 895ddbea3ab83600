import type { ChatMessage, Tool, ToolChoice } from './messages.js';

export type ReasoningEffort = 'max' | 'xhigh' | 'high' | 'medium' | 'low' | 'minimal' | 'none';

export interface ReasoningConfig {
  effort?: ReasoningEffort | null;
  summary?: 'auto' | 'concise' | 'detailed' | null;
  /** Accepted by the server though not typed in the SDK (reference §6.2). */
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

/** Sampling parameters both request kinds carry (chat and legacy completions). */
export interface SamplingParameters {
  max_tokens?: number | null;
  temperature?: number | null;
  top_p?: number | null;
  top_k?: number | null;
  min_p?: number | null;
  top_a?: number | null;
  frequency_penalty?: number | null;
  presence_penalty?: number | null;
  repetition_penalty?: number | null;
  seed?: number | null;
  stop?: string | string[] | null;
  logit_bias?: Record<string, number> | null;
  top_logprobs?: number | null;
  user?: string;
}

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

/** Body fields the adapter layer types explicitly (everything else goes to `extra`). */
export const TYPED_CHAT_FIELDS = [
  'model',
  'messages',
  'stream',
  'max_tokens',
  'max_completion_tokens',
  'temperature',
  'top_p',
  'top_k',
  'min_p',
  'top_a',
  'frequency_penalty',
  'presence_penalty',
  'repetition_penalty',
  'seed',
  'stop',
  'logit_bias',
  'logprobs',
  'top_logprobs',
  'tools',
  'tool_choice',
  'parallel_tool_calls',
  'response_format',
  'reasoning',
  'reasoning_effort',
  'user',
  'metadata',
] as const;

/**
 * Fields the gateway itself consumes (routing, presets, plugins, observability) and must never
 * forward upstream. `stream_options` is set by the adapter itself.
 */
export const GATEWAY_ONLY_FIELDS: ReadonlySet<string> = new Set([
  'models',
  'provider',
  'plugins',
  'preset',
  'route',
  'transforms',
  'usage',
  'session_id',
  'trace',
  'debug',
  'stream_options',
  'stop_server_tools_when',
]);

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
  for (const [key, value] of Object.entries(body)) {
    if (value === undefined) continue;
    if (typedFields.has(key)) typed[key] = value;
    else if (!GATEWAY_ONLY_FIELDS.has(key)) extra[key] = value;
  }
  return { typed, extra };
}

/**
 * Builds a canonical request from an already validated client body: copies typed fields, moves
 * the rest (minus gateway-only fields) into `extra`, and sets `model` to the upstream name.
 * The body is not mutated; values are shared (callers treat requests as immutable).
 */
export function toCanonicalChatRequest(
  body: Record<string, unknown> & { messages: ChatMessage[] },
  upstreamModel: string,
): CanonicalChatRequest {
  const { typed: out, extra } = splitRequestFields(body, TYPED);
  return {
    ...(out as Omit<CanonicalChatRequest, 'model' | 'extra'>),
    messages: body.messages,
    model: upstreamModel,
    extra,
  };
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
