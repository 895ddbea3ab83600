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

/** What every chunk of one stream repeats: its id, creation time and model. */
export interface ChunkLabel {
  id: string;
  created: number;
  model: string;
}

/** A stream chunk of one delta, with its finish reason and the upstream's own when it gave one. */
export function deltaChunk(
  at: ChunkLabel,
  delta: CanonicalDelta,
  finish: string | null = null,
  native?: string,
): CanonicalChunk {
  const choice: CanonicalChunkChoice = { index: 0, delta, finish_reason: finish };
  if (native !== undefined) choice.native_finish_reason = native;
  return { id: at.id, object: 'chat.completion.chunk', created: at.created, model: at.model, choices: [choice] };
}

/** A stream's last chunk: no choices, and the usage. */
export function usageChunk(at: ChunkLabel, usage: CanonicalUsage): CanonicalChunk {
  return { id: at.id, object: 'chat.completion.chunk', created: at.created, model: at.model, choices: [], usage };
}
