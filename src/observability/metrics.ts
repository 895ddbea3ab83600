import type { FastifyReply, FastifyRequest } from 'fastify';
import { Counter, Gauge, Histogram, Registry } from 'prom-client';

/**
 * Prometheus metrics on a per-app Registry (never the global one, so tests can build many apps).
 * Label values are bounded and never carry key tokens, key hashes or prompt text: routes are
 * route patterns, providers and models come from the catalog, statuses are numbers.
 */
export type ModelCallOutcome = 'success' | 'upstream_error' | 'cancelled' | 'refused' | 'error';
export type TokenKind = 'prompt' | 'completion';

export interface ModelCallObservation {
  provider: string;
  model: string;
  outcome: ModelCallOutcome;
  promptTokens?: number;
  completionTokens?: number;
  costUsd?: number;
}

const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120];

/** Label for requests that matched no route (404s): one value, not the raw URL. */
export const UNMATCHED_ROUTE = 'unmatched';

export class Metrics {
  readonly registry: Registry;
  private readonly httpRequests: Counter<'route' | 'method' | 'status'>;
  private readonly httpDuration: Histogram<'route' | 'method' | 'status'>;
  private readonly modelCalls: Counter<'provider' | 'model' | 'outcome'>;
  private readonly upstreamErrors: Counter<'provider' | 'status'>;
  private readonly upstreamLatency: Histogram<'provider'>;
  private readonly tokens: Counter<'provider' | 'model' | 'kind'>;
  private readonly cost: Counter<'provider' | 'model'>;
  private readonly flags: Counter<'filter'>;
  private readonly ledgerFlushFailures: Counter;
  private ledgerDepth: () => number = () => 0;

  constructor(options: { defaultLabels?: Record<string, string> } = {}) {
    this.registry = new Registry();
    if (options.defaultLabels !== undefined) this.registry.setDefaultLabels(options.defaultLabels);
    const registers = [this.registry];
    this.httpRequests = new Counter({ name: 'switchyard_http_requests_total', help: 'HTTP requests answered', labelNames: ['route', 'method', 'status'], registers });
    this.httpDuration = new Histogram({
      name: 'switchyard_http_request_duration_seconds',
      help: 'HTTP request duration (receipt to response sent)',
      labelNames: ['route', 'method', 'status'],
      buckets: LATENCY_BUCKETS,
      registers,
    });
    this.modelCalls = new Counter({ name: 'switchyard_model_calls_total', help: 'Model calls by serving provider, model and outcome', labelNames: ['provider', 'model', 'outcome'], registers });
    this.upstreamErrors = new Counter({ name: 'switchyard_upstream_errors_total', help: 'Failed upstream attempts (fallbacks included)', labelNames: ['provider', 'status'], registers });
    this.upstreamLatency = new Histogram({
      name: 'switchyard_upstream_latency_seconds',
      help: 'Upstream time to first byte',
      labelNames: ['provider'],
      buckets: LATENCY_BUCKETS,
      registers,
    });
    this.tokens = new Counter({ name: 'switchyard_tokens_total', help: 'Tokens metered', labelNames: ['provider', 'model', 'kind'], registers });
    this.cost = new Counter({ name: 'switchyard_cost_usd_total', help: 'Cost metered, USD', labelNames: ['provider', 'model'], registers });
    this.flags = new Counter({ name: 'switchyard_content_filter_flags_total', help: 'Content-filter detections', labelNames: ['filter'], registers });
    const depth = () => this.ledgerDepth();
    new Gauge({
      name: 'switchyard_ledger_queue_depth',
      help: 'Generations settled but not yet written to the database',
      registers,
      collect() {
        this.set(depth());
      },
    });
    this.ledgerFlushFailures = new Counter({ name: 'switchyard_ledger_flush_failures_total', help: 'Ledger batch writes that failed (rows stay queued)', registers });
  }

  observeHttp(o: { route: string; method: string; status: number; durationSeconds: number }): void {
    const labels = { route: o.route, method: o.method, status: String(o.status) };
    this.httpRequests.inc(labels);
    if (Number.isFinite(o.durationSeconds) && o.durationSeconds >= 0) this.httpDuration.observe(labels, o.durationSeconds);
  }

  recordModelCall(o: ModelCallObservation): void {
    this.modelCalls.inc({ provider: o.provider, model: o.model, outcome: o.outcome });
    this.addTokens(o.provider, o.model, 'prompt', o.promptTokens);
    this.addTokens(o.provider, o.model, 'completion', o.completionTokens);
    if (o.costUsd !== undefined && Number.isFinite(o.costUsd) && o.costUsd > 0) this.cost.inc({ provider: o.provider, model: o.model }, o.costUsd);
  }

  /** `status` null: the upstream gave no HTTP status (connect error, timeout, reset). */
  recordUpstreamError(provider: string, status: number | null): void {
    this.upstreamErrors.inc({ provider, status: status === null ? 'none' : String(status) });
  }

  observeUpstreamLatency(provider: string, seconds: number): void {
    if (Number.isFinite(seconds) && seconds >= 0) this.upstreamLatency.observe({ provider }, seconds);
  }

  /** `filter`: the builtin slug or 'custom' (never the matched text or a user's pattern). */
  recordFlag(filter: string): void {
    this.flags.inc({ filter });
  }

  recordLedgerFlushFailure(): void {
    this.ledgerFlushFailures.inc();
  }

  /** The gauge reads the depth at scrape time (e.g. `metrics.trackLedger(meter)`). */
  trackLedger(source: { queueDepth(): number }): void {
    this.ledgerDepth = () => source.queueDepth();
  }

  contentType(): string {
    return this.registry.contentType;
  }

  render(): Promise<string> {
    return this.registry.metrics();
  }

  private addTokens(provider: string, model: string, kind: TokenKind, count: number | undefined): void {
    if (count !== undefined && Number.isFinite(count) && count > 0) this.tokens.inc({ provider, model, kind }, count);
  }
}

/**
 * `onResponse` hook recording HTTP metrics. The route label is the matched route pattern
 * (`request.routeOptions.url`, e.g. `/api/v1/keys/:hash`), never the raw URL.
 */
export function httpMetricsHook(metrics: Metrics): (request: FastifyRequest, reply: FastifyReply) => Promise<void> {
  return (request, reply) => {
    metrics.observeHttp({
      route: request.routeOptions.url ?? UNMATCHED_ROUTE,
      method: request.method,
      status: reply.statusCode,
      durationSeconds: reply.elapsedTime / 1000,
    });
    return Promise.resolve();
  };
}
