import type { GenerationRecord } from '../domain/accounting/types.js';

/**
 * The fields of the one line logged per model call, under `call` (the line's `msg` is
 * `CALL_LOG_MSG`). No prompt or completion text, no tokens.
 */
export interface CallLogLine {
  generation_id: string;
  request_id: string;
  /** First 8 characters of the key's public hash: enough to correlate, not the whole id. */
  key: string;
  workspace_id: string;
  model: string;
  provider: string;
  upstream_model: string;
  outcome: 'success' | 'cancelled' | 'error';
  /** Status of the last upstream attempt (null: no HTTP status, e.g. a connect error). */
  status: number | null;
  attempts: number;
  finish_reason: string | null;
  prompt_tokens: number;
  completion_tokens: number;
  reasoning_tokens: number;
  cached_tokens: number;
  usage_estimated: boolean;
  cost_usd: number;
  latency_ms: number;
  generation_time_ms: number;
  streamed: boolean;
  cancelled: boolean;
  preset_id: string | null;
  flags: string[];
}

function outcomeOf(g: GenerationRecord, status: number | null): CallLogLine['outcome'] {
  if (g.cancelled) return 'cancelled';
  if (g.finishReason === 'error' || (status !== null && status >= 400)) return 'error';
  return 'success';
}

export const CALL_LOG_MSG = 'model call';

/** Built from the metered record; logged as `log.info({ call: callLogLine(g) }, CALL_LOG_MSG)`. */
export function callLogLine(g: GenerationRecord): CallLogLine {
  const last = g.attempts[g.attempts.length - 1];
  const status = last === undefined ? null : last.status;
  return {
    generation_id: g.id,
    request_id: g.requestId,
    key: g.keyHash.slice(0, 8),
    workspace_id: g.workspaceId,
    model: g.model,
    provider: g.providerId,
    upstream_model: g.upstreamModel,
    outcome: outcomeOf(g, status),
    status,
    attempts: g.attempts.length,
    finish_reason: g.finishReason,
    prompt_tokens: g.promptTokens,
    completion_tokens: g.completionTokens,
    reasoning_tokens: g.reasoningTokens,
    cached_tokens: g.cachedTokens,
    usage_estimated: g.usageEstimated,
    cost_usd: g.costUsd,
    latency_ms: g.latencyMs,
    generation_time_ms: g.generationTimeMs,
    streamed: g.streamed,
    cancelled: g.cancelled,
    preset_id: g.presetId,
    flags: [...g.flags],
  };
}
