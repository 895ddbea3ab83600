import type { CountTokensRequestBody } from '../canonical/index.js';
import type { RouteCandidate } from '../domain/routing/index.js';
import type { ProviderRegistry } from '../providers/index.js';
import { decodeMessagesRequest } from '../wire/anthropic-messages/inbound/decode.js';
import { candidateTakes } from './native.js';
import { endpointConfig } from './attempts.js';

/** How long `count_tokens` waits for an upstream's count before estimating instead. */
const COUNT_TIMEOUT_MS = 10_000;

/**
 * A Messages body's input tokens as the first candidate's upstream counts them, when its kind has
 * a count call (Gemini's `countTokens`); null when it has none, or the count failed (the caller
 * estimates). Nothing is metered: a count is not a model call.
 */
export async function upstreamTokenCount(options: {
  providers: ProviderRegistry;
  candidates: readonly RouteCandidate[];
  body: CountTokensRequestBody;
  requestId: string;
}): Promise<number | null> {
  const candidate = options.candidates[0];
  if (candidate === undefined) return null;
  const { kind } = candidate.provider;
  const adapter = options.providers.get(kind);
  if (adapter.countTokens === undefined || candidateTakes(candidate, 'anthropic-messages')) return null;
  try {
    const decoded = decodeMessagesRequest({ ...options.body, max_tokens: 1 });
    const chat = { ...decoded, model: candidate.endpoint.upstreamModel, extra: {} };
    return await adapter.countTokens(endpointConfig(candidate.provider), chat, {
      signal: AbortSignal.timeout(COUNT_TIMEOUT_MS),
      requestId: options.requestId,
    });
  } catch {
    return null;
  }
}
