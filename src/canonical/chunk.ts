import type { ReasoningDetail } from './messages.js';
import type { NativeEvents } from './native.js';
import type { CanonicalUsage } from './usage.js';

export interface ToolCallDelta {
  index: number;
  id?: string;
  type?: 'function';
  function?: { name?: string; arguments?: string };
}

export interface CanonicalDelta {
  role?: 'assistant';
  content?: string | null;
  reasoning?: string | null;
  reasoning_details?: ReasoningDetail[];
  refusal?: string | null;
  tool_calls?: ToolCallDelta[];
}

export interface CanonicalChunkChoice {
  index: number;
  delta: CanonicalDelta;
  /** Usually a `FinishReason`; open, since upstreams add their own. */
  finish_reason: string | null;
  native_finish_reason?: string | null;
  logprobs?: unknown;
}

/**
 * A chat stream event in the OpenAI shape. Stream contract for adapters: chunks in order, and the LAST
 * chunk carries `usage` (it may have empty `choices`). Upstream failures are not chunks: the
 * iterator throws an UpstreamError instead.
 */
export interface CanonicalChunk {
  id: string;
  object: 'chat.completion.chunk';
  created: number;
  model: string;
  choices: CanonicalChunkChoice[];
  usage?: CanonicalUsage;
  system_fingerprint?: string | null;
  service_tier?: string | null;
  /** A native pass-through's events this chunk stands for (src/canonical/native.ts). */
  native?: NativeEvents;
}
