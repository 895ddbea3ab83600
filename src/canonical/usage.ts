import { isRecord } from './json.js';
import { loadO200kCounter, type TokenCounter } from './o200k-counter.js';
/** Token accounting as reported to clients (OpenAI's usage object plus cost fields). */
export interface CanonicalPromptTokensDetails {
  cached_tokens?: number;
  cache_write_tokens?: number;
  audio_tokens?: number;
  video_tokens?: number;
}

export interface CanonicalCompletionTokensDetails {
  reasoning_tokens?: number | null;
  audio_tokens?: number | null;
  accepted_prediction_tokens?: number | null;
  rejected_prediction_tokens?: number | null;
}

export interface CanonicalUsage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
  prompt_tokens_details?: CanonicalPromptTokensDetails | null;
  completion_tokens_details?: CanonicalCompletionTokensDetails | null;
  /** Gateway-filled (accounting) fields; adapters leave them out. */
  cost?: number | null;
  is_byok?: boolean;
  /**
   * Internal (never rendered): set when the upstream reported no usage and the adapter counted
   * it itself (about four characters per token), so accounting can tell the two apart.
   */
  estimated?: boolean;
}

/**
 * Token count for text when an upstream reports no usage, with the o200k_base BPE tokenizer
 * (GPT-4o's; other vendors' tokenizers differ by a few percent). Very long texts fall back to
 * four characters a token so that counting never costs more than the call.
 */
export function estimateTokens(text: string): number {
  if (text.length === 0) return 0;
  return text.length > MAX_TOKENIZED_CHARS ? Math.ceil(text.length / 4) : tokenCounter()(text);
}

let counter: TokenCounter | null = null;

/**
 * Loads the o200k_base tables now. The server does it before its port opens so that no call
 * pays for reading them; they are compact typed arrays (o200k-counter.ts), a few MB resident.
 */
export function loadTokenizer(): void {
  tokenCounter();
}

function tokenCounter(): TokenCounter {
  counter ??= loadO200kCounter();
  return counter;
}

const MAX_TOKENIZED_CHARS = 1_000_000;

/**
 * Usage counted by us with the tokenizer when the upstream reported none (a cut stream, an
 * upstream without usage): the text sent and the text received, marked as estimated.
 */
export function estimatedUsage(promptText: string, completionText: string): CanonicalUsage {
  const prompt = estimateTokens(promptText);
  const completion = estimateTokens(completionText);
  return { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion, estimated: true };
}

export function makeUsage(promptTokens: number, completionTokens: number): CanonicalUsage {
  return {
    prompt_tokens: promptTokens,
    completion_tokens: completionTokens,
    total_tokens: promptTokens + completionTokens,
  };
}

/** Sums two usages (legacy completions over several prompts); details are summed where present. */
export function addUsage(a: CanonicalUsage, b: CanonicalUsage): CanonicalUsage {
  const sum = makeUsage(a.prompt_tokens + b.prompt_tokens, a.completion_tokens + b.completion_tokens);
  const cached = (a.prompt_tokens_details?.cached_tokens ?? 0) + (b.prompt_tokens_details?.cached_tokens ?? 0);
  if (cached > 0) sum.prompt_tokens_details = { cached_tokens: cached };
  const reasoning =
    (a.completion_tokens_details?.reasoning_tokens ?? 0) + (b.completion_tokens_details?.reasoning_tokens ?? 0);
  if (reasoning > 0) sum.completion_tokens_details = { reasoning_tokens: reasoning };
  return sum;
}

function toCount(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? Math.floor(value) : 0;
}

/**
 * Reads an OpenAI-shaped usage object from untrusted upstream JSON. Returns null when the
 * value is not an object; missing counts become 0 and total is recomputed when absent.
 */
export function parseOpenAiUsage(value: unknown): CanonicalUsage | null {
  if (!isRecord(value)) return null;
  const prompt = toCount(value.prompt_tokens);
  const completion = toCount(value.completion_tokens);
  const usage = makeUsage(prompt, completion);
  if (typeof value.total_tokens === 'number') usage.total_tokens = toCount(value.total_tokens);
  const pd = value.prompt_tokens_details;
  if (isRecord(pd)) {
    const details: CanonicalPromptTokensDetails = {};
    for (const key of ['cached_tokens', 'cache_write_tokens', 'audio_tokens', 'video_tokens'] as const) {
      if (typeof pd[key] === 'number') details[key] = toCount(pd[key]);
    }
    usage.prompt_tokens_details = details;
  }
  const cd = value.completion_tokens_details;
  if (isRecord(cd)) {
    const details: CanonicalCompletionTokensDetails = {};
    for (const key of [
      'reasoning_tokens',
      'audio_tokens',
      'accepted_prediction_tokens',
      'rejected_prediction_tokens',
    ] as const) {
      if (typeof cd[key] === 'number') details[key] = toCount(cd[key]);
    }
    usage.completion_tokens_details = details;
  }
  return usage;
}
