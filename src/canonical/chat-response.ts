import type { ReasoningDetail, ToolCall } from './messages.js';
import type { NativeAnswer } from './native.js';
import type { CanonicalUsage } from './usage.js';

export type FinishReason = 'stop' | 'length' | 'tool_calls' | 'content_filter' | 'error';

export interface CanonicalAssistantMessage {
  role: 'assistant';
  content: string | null;
  reasoning?: string | null;
  reasoning_details?: ReasoningDetail[];
  tool_calls?: ToolCall[];
  refusal: string | null;
}

export interface CanonicalLogprobs {
  content: unknown[] | null;
  refusal?: unknown[] | null;
}

export interface CanonicalChoice {
  index: number;
  message: CanonicalAssistantMessage;
  /** Usually a `FinishReason`, but open on the wire (upstreams add their own); null when unknown. */
  finish_reason: string | null;
  /** The upstream's raw reason (e.g. Anthropic `end_turn`), when it differs. */
  native_finish_reason?: string | null;
  logprobs?: CanonicalLogprobs | null;
}

/** A chat completion as an adapter returns it (the gateway relabels id, model, provider and usage). */
export interface CanonicalChatResponse {
  id: string;
  object: 'chat.completion';
  created: number;
  /** The upstream model name that served the request. */
  model: string;
  choices: CanonicalChoice[];
  system_fingerprint: string | null;
  service_tier?: string | null;
  usage: CanonicalUsage;
  /** A native pass-through's answer as the upstream sent it (src/canonical/native.ts); the rest is its reading. */
  native?: NativeAnswer;
}
