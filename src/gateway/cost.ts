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

/**
 * Client-facing usage with its cost fields; drops internal markers. Keys keep the usage's order
 * and the cost fields follow (a key the usage has already keeps its place, as in a spread). The
 * copy is an object rest and the cost fields are assigned to it: in V8 an object literal that
 * starts with a spread and adds keys the copy lacks (`{ ...rest, cost }`) builds a new hidden
 * class for every object, many times dearer than the copy (once per answer and per usage chunk).
 */
export function usageWithCost(usage: CanonicalUsage, cost: CallCost): UsageWithCost {
  const { estimated: _estimated, ...out } = usage as UsageWithCost;
  out.cost = cost.total;
  out.is_byok = false;
  out.cost_details = {
    upstream_inference_prompt_cost: cost.prompt,
    upstream_inference_completions_cost: cost.completion,
    upstream_inference_cost: cost.total,
  };
  return out;
}

export type UsageWithCost = CanonicalUsage & { cost_details: Record<string, number | null> };
