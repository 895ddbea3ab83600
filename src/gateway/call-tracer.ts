import type { CallKind } from '../canonical/index.js';
import type { GenerationRecord } from '../domain/accounting/types.js';
import type { RouteCandidate } from '../domain/routing/index.js';
import type { GatewayError } from '../errors/index.js';
import type { ProviderEndpointConfig } from '../providers/index.js';

/** Request headers as the HTTP edge received them (names in lower case). */
export type TraceHeaders = Readonly<Record<string, string | string[] | undefined>>;

/**
 * Traces of model calls (implemented in src/observability/tracing.ts). The gateway is given one
 * only when tracing is on; without one it creates no trace objects at all.
 */
export interface CallTracer {
  /** Opens the span of one call, a child of the client's `traceparent` when it sent one. */
  startCall(start: CallTraceStart): CallTrace;
  /** Exports the spans still queued and stops (server close). */
  shutdown(): Promise<void>;
}

export interface CallTraceStart {
  kind: CallKind;
  /** The model the client asked for (the first of its `models` list when it named none). */
  model: string;
  /** The public hash of the calling key; a trace carries only a short prefix of it. */
  keyHash: string;
  headers: TraceHeaders | undefined;
}

/** What a trace is told of one upstream attempt. */
export interface AttemptTarget {
  /** 0 for the first candidate, 1 for the first fallback, … */
  index: number;
  candidate: RouteCandidate;
  endpoint: ProviderEndpointConfig;
}

/** One call's trace. Its methods never throw. */
export interface CallTrace {
  /** A child span per upstream attempt. */
  attempt(target: AttemptTarget): AttemptTrace;
  /** The call was refused before it was accepted (nothing was sent upstream). */
  refused(error: unknown): void;
  /** The call settled: ends the call's span (and the attempt that answered). `error`: what the client got, if it failed. */
  settled(generation: GenerationRecord, error: GatewayError | null): void;
}

export interface AttemptTrace {
  /** The attempt span's W3C trace context, for the upstream request (`traceparent`, `tracestate`). */
  readonly upstreamHeaders: Readonly<Record<string, string>> | undefined;
  /** The upstream answered (a stream: its first event); the span stays open until the call settles. */
  answered(): void;
  failed(error: unknown): void;
}

type Attempt<T> = (candidate: RouteCandidate, endpoint: ProviderEndpointConfig) => Promise<T>;
type TracedSend<T> = (
  candidate: RouteCandidate,
  endpoint: ProviderEndpointConfig,
  traceHeaders: Readonly<Record<string, string>> | undefined,
) => Promise<T>;

/**
 * `send` with one attempt span around each call of it, given the span's trace context for the
 * upstream request; `send` without one when the call is not traced.
 */
export function traceAttempts<T>(trace: CallTrace | null, send: TracedSend<T>): Attempt<T> {
  if (trace === null) return (candidate, endpoint) => send(candidate, endpoint, undefined);
  let index = 0;
  return async (candidate, endpoint) => {
    const attempt = trace.attempt({ index: index++, candidate, endpoint });
    try {
      const value = await send(candidate, endpoint, attempt.upstreamHeaders);
      attempt.answered();
      return value;
    } catch (error) {
      attempt.failed(error);
      throw error;
    }
  };
}
