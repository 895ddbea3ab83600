import type { CanonicalUsage } from '../canonical/index.js';
import type { RouteCandidate } from '../domain/routing/index.js';
import type { Relabelled } from './call.js';
import { usageWithCost, type CallCost } from './cost.js';

interface Labelled {
  id: string;
  model: string;
  usage?: CanonicalUsage;
}

/**
 * An upstream answer as the client sees it: our generation id, the catalog slug that served it,
 * the provider's name (last), and usage with its cost. Changed in place, like a stream event: the
 * answer is the fresh object the adapter parsed for this call, and nothing reads it after it is
 * handed to the sink. Assigning keeps every existing key where it was and adds `provider` last,
 * which is the order `{ ...value, id, model, provider, usage }` gave, without copying the answer.
 */
export function relabelAnswer<T extends Labelled & { usage: CanonicalUsage }>(
  value: T,
  by: { generationId: string; candidate: RouteCandidate; cost: CallCost },
): Relabelled<T> {
  const out: Relabelled<T> = value;
  out.id = by.generationId;
  out.model = by.candidate.model.slug;
  out.provider = by.candidate.provider.name;
  out.usage = usageWithCost(value.usage, by.cost);
  return out;
}

/**
 * The same for a stream event, in place: each chunk is a fresh object the adapter keeps no
 * reference to (ProviderAdapter.chatStream), so it is changed rather than copied; the JSON is the
 * same (keys keep their places, provider last). `cost` is given with the chunk that carries usage.
 */
export function relabelChunk<T extends Labelled>(
  chunk: T,
  by: { generationId: string; candidate: RouteCandidate },
  cost: CallCost | null,
): Relabelled<T> {
  const out: Relabelled<T> = chunk;
  out.id = by.generationId;
  out.model = by.candidate.model.slug;
  out.provider = by.candidate.provider.name;
  if (out.usage !== undefined && cost !== null) out.usage = usageWithCost(out.usage, cost);
  return out;
}
