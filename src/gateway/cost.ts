import type { CanonicalUsage } from '../canonical/index.js';
import type { EndpointPricing } from '../catalog/index.js';
import type { RouteCandidate } from '../domain/routing/index.js';

export interface CallCost {
  prompt: number;
  completion: number;
  total: number;
}

/** USD from the endpoint's per-token prices and the tokens used (request fee included). */
export function costOf(
  usage: Pick<CanonicalUsage, 'prompt_tokens' | 'completion_tokens'>,
  pricing: EndpointPricing,
): CallCost {
  const prompt = usage.prompt_tokens * pricing.prompt;
  const completion = usage.completion_tokens * pricing.completion;
  return { prompt, completion, total: prompt + completion + (pricing.request ?? 0) };
}

/** Output tokens assumed for a reservation when the request sets no cap. */
export const DEFAULT_RESERVED_COMPLETION_TOKENS = 1024;

/**
 * The most this call may cost on any of its candidates, used to reserve budget before the call:
 * prompt tokens estimated from the text length, completion tokens from the request's cap.
 */
export function estimateCost(options: {
  promptChars: number;
  maxTokens: number | null;
  candidates: readonly RouteCandidate[];
}): number {
  const promptTokens = Math.ceil(options.promptChars / 4);
  let worst = 0;
  for (const c of options.candidates) {
    const cap =
      options.maxTokens ??
      Math.min(
        c.endpoint.maxCompletionTokens ?? DEFAULT_RESERVED_COMPLETION_TOKENS,
        DEFAULT_RESERVED_COMPLETION_TOKENS,
      );
    worst = Math.max(worst, costOf({ prompt_tokens: promptTokens, completion_tokens: cap }, c.endpoint.pricing).total);
  }
  return worst;
}

/** Client-facing usage with its cost fields; drops internal markers. */
export function usageWithCost(
  usage: CanonicalUsage,
  cost: CallCost,
): CanonicalUsage & { cost_details: Record<string, number | null> } {
  const { estimated: _estimated, ...rest } = usage;
  return {
    ...rest,
    cost: cost.total,
    is_byok: false,
    cost_details: {
      upstream_inference_prompt_cost: cost.prompt,
      upstream_inference_completions_cost: cost.completion,
      upstream_inference_cost: cost.total,
    },
  };
}
