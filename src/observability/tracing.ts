import type { ExportResult } from '@opentelemetry/core';
import { ExportResultCode, W3CTraceContextPropagator } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import {
  AlwaysOffSampler,
  AlwaysOnSampler,
  BatchSpanProcessor,
  ParentBasedSampler,
  TraceIdRatioBasedSampler,
  TracerProvider,
  type ReadableSpan,
  type Sampler,
  type SpanExporter,
} from '@opentelemetry/sdk-trace';
import type { TraceSampler, TracingConfig } from '../config/env.js';
import type { CallTracer } from '../gateway/call-tracer.js';
import { startCallSpans } from './call-spans.js';

/** One export may take this long; closing the server waits for the last one at most this long too. */
const EXPORT_TIMEOUT_MS = 5000;

/** Failed exports are logged at most this often (a collector that is down fails every batch). */
const FAILURE_LOG_EVERY_MS = 60_000;

export interface TracingOptions {
  config: TracingConfig;
  /** Told when a batch of spans could not be exported (rate-limited). */
  log?: (msg: string, err?: unknown) => void;
}

/** Passes spans on to the OTLP exporter and reports failed exports. */
function reporting(exporter: SpanExporter, log: TracingOptions['log']): SpanExporter {
  let loggedAt = -Infinity;
  return {
    export: (spans: ReadableSpan[], done: (result: ExportResult) => void) =>
      exporter.export(spans, (result) => {
        const now = Date.now();
        if (result.code !== ExportResultCode.SUCCESS && log !== undefined && now - loggedAt >= FAILURE_LOG_EVERY_MS) {
          loggedAt = now;
          log(`OpenTelemetry: ${spans.length} spans could not be exported`, result.error);
        }
        done(result);
      }),
    shutdown: () => exporter.shutdown(),
    forceFlush: () => exporter.forceFlush?.() ?? Promise.resolve(),
  };
}

/** The configured sampler; a `parentBased` one follows a client's sampled flag and uses `root` otherwise. */
function samplerOf(config: TraceSampler): Sampler {
  const root =
    config.root === 'always_on'
      ? new AlwaysOnSampler()
      : config.root === 'always_off'
        ? new AlwaysOffSampler()
        : new TraceIdRatioBasedSampler(config.ratio);
  return config.parentBased ? new ParentBasedSampler({ root }) : root;
}

/**
 * The OpenTelemetry SDK set up for model calls: spans batched and posted as OTLP/HTTP JSON to the
 * configured endpoint, under the resource `service.name`. Loaded (with the SDK) only when tracing
 * is on. The exporter also honours the standard OTEL_EXPORTER_OTLP_* headers, timeout,
 * compression and certificate variables itself. Contexts are passed explicitly: no global
 * provider or context manager is registered.
 */
export function createCallTracer(options: TracingOptions): CallTracer {
  const { config } = options;
  const exporter = new OTLPTraceExporter({ url: config.endpoint, timeoutMillis: EXPORT_TIMEOUT_MS });
  const processor = new BatchSpanProcessor({
    exporter: reporting(exporter, options.log),
    scheduledDelayMillis: config.scheduleDelayMs,
    exportTimeoutMillis: EXPORT_TIMEOUT_MS,
  });
  const provider = new TracerProvider({
    resource: resourceFromAttributes({ 'service.name': config.serviceName }),
    sampler: samplerOf(config.sampler),
    spanProcessors: [processor],
  });
  const tracer = provider.getTracer('switchyard');
  const propagator = new W3CTraceContextPropagator();
  let closing: Promise<void> | null = null;
  return {
    startCall: (start) => startCallSpans(tracer, propagator, start),
    shutdown: () => {
      closing ??= bounded(provider.shutdown(), EXPORT_TIMEOUT_MS);
      return closing;
    },
  };
}

/** Resolves when `work` settles or after `ms`, whichever is first; never rejects. */
function bounded(work: Promise<void>, ms: number): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    timer.unref();
    const done = () => {
      clearTimeout(timer);
      resolve();
    };
    work.then(done, done);
  });
}
