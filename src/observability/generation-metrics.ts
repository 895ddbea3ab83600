import type { GenerationRecord } from '../domain/accounting/types.js';
import type { Metrics, ModelCallOutcome } from './metrics.js';

function outcomeOf(g: GenerationRecord): ModelCallOutcome {
  if (g.cancelled) return 'cancelled';
  if (g.providerId === '') return 'upstream_error';
  return g.finishReason === 'error' ? 'error' : 'success';
}

/** Records one settled model call: outcome, tokens, cost, failed attempts, time to first byte. */
export function recordGeneration(metrics: Metrics, g: GenerationRecord): void {
  metrics.recordModelCall({
    provider: g.providerId === '' ? 'none' : g.providerId,
    model: g.model,
    outcome: outcomeOf(g),
    promptTokens: g.promptTokens,
    completionTokens: g.completionTokens,
    costUsd: g.costUsd,
  });
  for (const attempt of g.attempts) {
    if (attempt.status !== 200) metrics.recordUpstreamError(attempt.provider, attempt.status);
  }
  if (g.providerId !== '') metrics.observeUpstreamLatency(g.providerId, g.latencyMs / 1000);
  for (const flag of g.flags) metrics.recordFlag(flag);
}
