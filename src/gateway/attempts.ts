import { endpointAuth, type ProviderEndpointConfig } from '../providers/index.js';
import { isUpstreamError, type UpstreamError } from '../upstream/upstream-error.js';
import type { EndpointHealth, RouteCandidate } from '../domain/routing/index.js';
import type { Catalog, CatalogProvider } from '../catalog/index.js';

export interface Attempt {
  provider: string;
  model: string;
  status: number | null;
}

export interface AttemptOutcome<T> {
  value: T;
  candidate: RouteCandidate;
  attempts: Attempt[];
  firstByteMs: number;
}

/**
 * Timeouts of a provider whose catalog entry sets none. A healthy API connects in well under a
 * second; a stream's first byte (headers, then a token, a ping or a keep-alive comment) comes
 * within seconds even for long prompts, and a non-streamed answer of a few thousand tokens is
 * whole within a minute; mid-stream, tokens come many times a second and vendors send keep-alive
 * events during pauses. Longer silences are a stalled upstream: falling back (or failing) beats
 * holding the client. Reasoning models and long non-streamed answers need the catalog's own values.
 */
export const DEFAULT_TIMEOUTS = Object.freeze({ connectMs: 5_000, firstByteMs: 60_000, idleMs: 30_000 });

/** Per catalog provider (a catalog is immutable; a reload builds new provider objects). */
const configs = new WeakMap<CatalogProvider, ProviderEndpointConfig>();

/** What an adapter needs to call a provider; built once per provider, frozen, shared by every call. */
export function endpointConfig(provider: CatalogProvider): ProviderEndpointConfig {
  let config = configs.get(provider);
  if (config === undefined) {
    config = buildEndpointConfig(provider);
    configs.set(provider, config);
  }
  return config;
}

/**
 * Builds the endpoint config of every available provider of a catalog now, so that credentials
 * fetched in the background (Vertex AI's tokens) are on their way before the first call.
 */
export function prepareEndpoints(catalog: Catalog): void {
  for (const provider of catalog.providers) if (provider.available) endpointConfig(provider);
}

function buildEndpointConfig(provider: CatalogProvider): ProviderEndpointConfig {
  const apiKey = provider.getApiKey();
  return Object.freeze({
    providerId: provider.id,
    kind: provider.kind,
    baseUrl: provider.baseUrl ?? '',
    auth: endpointAuth(provider, apiKey),
    apiKey,
    ...(provider.azure === null ? {} : { azure: provider.azure }),
    headers: Object.freeze({ ...provider.headers }),
    timeouts: Object.freeze({
      connectMs: provider.timeouts.connectMs ?? DEFAULT_TIMEOUTS.connectMs,
      firstByteMs: provider.timeouts.firstByteMs ?? DEFAULT_TIMEOUTS.firstByteMs,
      idleMs: provider.timeouts.idleMs ?? DEFAULT_TIMEOUTS.idleMs,
    }),
    google: provider.google,
  });
}

/** Attaches the attempts made so far, so the caller can record them even when all failed. */
export class AttemptsFailed extends Error {
  constructor(
    readonly last: UpstreamError,
    readonly attempts: Attempt[],
  ) {
    super(last.message);
  }
}

/**
 * Tries candidates in order until one answers. A retryable failure (connection, timeout, 429,
 * 5xx) before the first byte moves on to the next candidate and counts against the endpoint's
 * health; anything else, or the client going away, ends the call.
 */
export async function firstSuccessful<T>(options: {
  candidates: readonly RouteCandidate[];
  health: EndpointHealth;
  signal: AbortSignal;
  call: (candidate: RouteCandidate, endpoint: ProviderEndpointConfig) => Promise<T>;
}): Promise<AttemptOutcome<T>> {
  const attempts: Attempt[] = [];
  let last: UpstreamError | null = null;
  for (const candidate of options.candidates) {
    if (options.signal.aborted) break;
    const started = performance.now();
    try {
      const value = await options.call(candidate, endpointConfig(candidate.provider));
      const firstByteMs = performance.now() - started;
      options.health.recordSuccess(candidate.endpoint.key);
      options.health.recordLatency(candidate.endpoint.key, firstByteMs);
      attempts.push({ provider: candidate.provider.id, model: candidate.model.slug, status: 200 });
      return { value, candidate, attempts, firstByteMs };
    } catch (error) {
      if (!isUpstreamError(error)) throw error;
      attempts.push({
        provider: candidate.provider.id,
        model: candidate.model.slug,
        status: error.upstreamStatus ?? error.status,
      });
      last = error;
      if (error.kind === 'aborted' || !error.retryable) throw new AttemptsFailed(error, attempts);
      options.health.recordFailure(candidate.endpoint.key);
    }
  }
  if (last === null) throw new Error('no candidate was tried');
  throw new AttemptsFailed(last, attempts);
}
