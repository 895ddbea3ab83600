import { randomBytes } from 'node:crypto';

/** Per-token USD prices of the endpoint that served (catalog `EndpointPricing` fits). */
export interface TokenPrices {
  readonly prompt: number;
  readonly completion: number;
}

export interface CallCost {
  promptCostUsd: number;
  completionCostUsd: number;
  costUsd: number;
}

const money = (value: number): number => (Number.isFinite(value) && value > 0 ? value : 0);
const count = (value: number): number => (Number.isFinite(value) && value > 0 ? Math.floor(value) : 0);

/**
 * cost = prompt_tokens × prompt price + completion_tokens × completion price. The tokens are the
 * upstream's counts, or ours when it reported none (`GenerationRecord.usageEstimated`).
 */
export function computeCost(prices: TokenPrices, promptTokens: number, completionTokens: number): CallCost {
  const promptCostUsd = count(promptTokens) * money(prices.prompt);
  const completionCostUsd = count(completionTokens) * money(prices.completion);
  return { promptCostUsd, completionCostUsd, costUsd: promptCostUsd + completionCostUsd };
}

/**
 * Worst-case estimate reserved before the call: the counted prompt plus the most the call may
 * generate (`max_tokens`, else the endpoint's max completion tokens, else its context left).
 */
export function estimateCost(prices: TokenPrices, promptTokens: number, maxCompletionTokens: number): number {
  return computeCost(prices, promptTokens, maxCompletionTokens).costUsd;
}

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** `gen-<unix seconds>-<20 base62 chars>`, the shape OpenRouter's generation ids have. */
export function newGenerationId(now: Date): string {
  let suffix = '';
  for (const b of randomBytes(20)) suffix += ALPHABET[b % ALPHABET.length];
  return `gen-${Math.floor(now.getTime() / 1000)}-${suffix}`;
}
