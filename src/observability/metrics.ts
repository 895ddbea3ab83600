import { Counter, Gauge, Registry } from 'prom-client';
import { SeriesCounter, SeriesHistogram, type CounterSeries, type HistogramSeries } from './series.js';

/**
 * Prometheus metrics on a per-app Registry (never the global one, so tests can build many apps).
 * Label values are bounded and never carry key tokens, key hashes or prompt text: routes are
 * route patterns, providers and models come from the catalog, statuses are numbers.
 */
export type ModelCallOutcome = 'success' | 'upstream_error' | 'cancelled' | 'refused' | 'error';

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

/** The two HTTP series of one route, method and status. */
export interface HttpSeries {
  requests: CounterSeries;
  duration: HistogramSeries;
}

/** The series of one provider and model; outcome counters are made on first use. */
interface ModelSeries {
  calls: Map<ModelCallOutcome, CounterSeries>;
  prompt: CounterSeries;
  completion: CounterSeries;
  cost: CounterSeries;
}

/** Nested maps get(a).get(b), made on first use. */
function inner<K, V>(outer: Map<string, Map<K, V>>, key: string): Map<K, V> {
  let map = outer.get(key);
  if (map === undefined) {
    map = new Map<K, V>();
    outer.set(key, map);
  }
  return map;
}

/**
 * The request path resolves each label set to its series once (nested maps keyed by the label
 * values) and then only adds numbers: no label object, hash string or validation per call.
 */
export class Metrics {
  readonly registry: Registry;
  private readonly httpRequests: SeriesCounter<'route' | 'method' | 'status'>;
  private readonly httpDuration: SeriesHistogram<'route' | 'method' | 'status'>;
  private readonly modelCalls: SeriesCounter<'provider' | 'model' | 'outcome'>;
  private readonly upstreamErrors: SeriesCounter<'provider' | 'status'>;
  private readonly upstreamLatency: SeriesHistogram<'provider'>;
  private readonly tokens: SeriesCounter<'provider' | 'model' | 'kind'>;
  private readonly cost: SeriesCounter<'provider' | 'model'>;
  private readonly flags: SeriesCounter<'filter'>;
  private readonly ledgerFlushFailures: Counter;
  private ledgerDepth: () => number = () => 0;
  private readonly http = new Map<string, Map<string, Map<number, HttpSeries>>>();
  private readonly models = new Map<string, Map<string, ModelSeries>>();
  private readonly errorsByProvider = new Map<string, Map<number | null, CounterSeries>>();
  private readonly latencyByProvider = new Map<string, HistogramSeries>();
  private readonly flagsByFilter = new Map<string, CounterSeries>();

  constructor(options: { defaultLabels?: Record<string, string> } = {}) {
    this.registry = new Registry();
    if (options.defaultLabels !== undefined) this.registry.setDefaultLabels(options.defaultLabels);
    const registers = [this.registry];
    this.httpRequests = new SeriesCounter({
      name: 'switchyard_http_requests_total',
      help: 'HTTP requests answered',
      labelNames: ['route', 'method', 'status'],
      registers,
    });
    this.httpDuration = new SeriesHistogram({
      name: 'switchyard_http_request_duration_seconds',
      help: 'HTTP request duration (receipt to response sent)',
      buckets: LATENCY_BUCKETS,
      registers,
    });
    this.modelCalls = new SeriesCounter({
      name: 'switchyard_model_calls_total',
      help: 'Model calls by serving provider, model and outcome',
      labelNames: ['provider', 'model', 'outcome'],
      registers,
    });
    this.upstreamErrors = new SeriesCounter({
      name: 'switchyard_upstream_errors_total',
      help: 'Failed upstream attempts (fallbacks included)',
      labelNames: ['provider', 'status'],
      registers,
    });
    this.upstreamLatency = new SeriesHistogram({
      name: 'switchyard_upstream_latency_seconds',
      help: 'Upstream time to first byte',
      buckets: LATENCY_BUCKETS,
      registers,
    });
    this.tokens = new SeriesCounter({
      name: 'switchyard_tokens_total',
      help: 'Tokens metered',
      labelNames: ['provider', 'model', 'kind'],
      registers,
    });
    this.cost = new SeriesCounter({
      name: 'switchyard_cost_usd_total',
      help: 'Cost metered, USD',
      labelNames: ['provider', 'model'],
      registers,
    });
    this.flags = new SeriesCounter({
      name: 'switchyard_content_filter_flags_total',
      help: 'Content-filter detections',
      labelNames: ['filter'],
      registers,
    });
    const depth = () => this.ledgerDepth();
    new Gauge({
      name: 'switchyard_ledger_queue_depth',
      help: 'Generations settled but not yet written to the database',
      registers,
      collect() {
        this.set(depth());
      },
    });
    this.ledgerFlushFailures = new Counter({
      name: 'switchyard_ledger_flush_failures_total',
      help: 'Ledger batch writes that failed (rows stay queued)',
      registers,
    });
  }

  /** The HTTP series of a route pattern, method and status (resolved once, then cached). */
  httpSeries(route: string, method: string, status: number): HttpSeries {
    const byStatus = inner(inner(this.http, route), method);
    let series = byStatus.get(status);
    if (series === undefined) {
      const labels = { route, method, status: String(status) };
      series = { requests: this.httpRequests.series(labels), duration: this.httpDuration.series(labels) };
      byStatus.set(status, series);
    }
    return series;
  }

  observeHttp(o: { route: string; method: string; status: number; durationSeconds: number }): void {
    recordHttp(this.httpSeries(o.route, o.method, o.status), o.durationSeconds);
  }

  recordModelCall(o: ModelCallObservation): void {
    const byModel = inner(this.models, o.provider);
    let series = byModel.get(o.model);
    if (series === undefined) {
      const { provider, model } = o;
      series = {
        calls: new Map(),
        prompt: this.tokens.series({ provider, model, kind: 'prompt' }),
        completion: this.tokens.series({ provider, model, kind: 'completion' }),
        cost: this.cost.series({ provider, model }),
      };
      byModel.set(o.model, series);
    }
    let calls = series.calls.get(o.outcome);
    if (calls === undefined) {
      calls = this.modelCalls.series({ provider: o.provider, model: o.model, outcome: o.outcome });
      series.calls.set(o.outcome, calls);
    }
    calls.inc();
    if (positive(o.promptTokens)) series.prompt.inc(o.promptTokens);
    if (positive(o.completionTokens)) series.completion.inc(o.completionTokens);
    if (positive(o.costUsd)) series.cost.inc(o.costUsd);
  }

  /** `status` null: the upstream gave no HTTP status (connect error, timeout, reset). */
  recordUpstreamError(provider: string, status: number | null): void {
    const byStatus = inner(this.errorsByProvider, provider);
    let series = byStatus.get(status);
    if (series === undefined) {
      series = this.upstreamErrors.series({ provider, status: status === null ? 'none' : String(status) });
      byStatus.set(status, series);
    }
    series.inc();
  }

  observeUpstreamLatency(provider: string, seconds: number): void {
    if (!Number.isFinite(seconds) || seconds < 0) return;
    let series = this.latencyByProvider.get(provider);
    if (series === undefined) {
      series = this.upstreamLatency.series({ provider });
      this.latencyByProvider.set(provider, series);
    }
    series.observe(seconds);
  }

  /** `filter`: the builtin slug or 'custom' (never the matched text or a user's pattern). */
  recordFlag(filter: string): void {
    let series = this.flagsByFilter.get(filter);
    if (series === undefined) {
      series = this.flags.series({ filter });
      this.flagsByFilter.set(filter, series);
    }
    series.inc();
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
}

function positive(n: number | undefined): n is number {
  return n !== undefined && Number.isFinite(n) && n > 0;
}

/** Counts one HTTP answer and observes its duration (a non-finite or negative duration is not observed). */
export function recordHttp(series: HttpSeries, seconds: number): void {
  series.requests.inc();
  if (Number.isFinite(seconds) && seconds >= 0) series.duration.observe(seconds);
}
