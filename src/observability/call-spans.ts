import {
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  defaultTextMapGetter,
  defaultTextMapSetter,
  trace,
  type Attributes,
  type Context,
  type Span,
  type TextMapPropagator,
  type Tracer,
} from '@opentelemetry/api';
import type { CallKind } from '../canonical/index.js';
import type { GenerationRecord } from '../domain/accounting/types.js';
import { isGatewayError, type GatewayError } from '../errors/index.js';
import type { AttemptTarget, AttemptTrace, CallTrace, CallTraceStart, TraceHeaders } from '../gateway/call-tracer.js';
import { isUpstreamError } from '../upstream/upstream-error.js';

/** `gen_ai.operation.name` per call kind (OpenTelemetry GenAI semantic conventions). */
const OPERATION: Readonly<Record<CallKind, string>> = {
  chat: 'chat',
  completion: 'text_completion',
  embeddings: 'embeddings',
};

/** A key is named by this many characters of its public hash, as in the call log. */
const KEY_PREFIX = 8;

export type CallOutcome = 'success' | 'error' | 'cancelled' | 'refused';

export function outcomeOf(g: GenerationRecord, error: GatewayError | null): CallOutcome {
  if (g.cancelled) return 'cancelled';
  return error !== null || g.finishReason === 'error' ? 'error' : 'success';
}

const NO_ATTEMPT: AttemptTrace = { upstreamHeaders: undefined, answered: () => undefined, failed: () => undefined };

/** A call whose trace is not sampled (the client's traceparent says so): its children would not be either. */
const NOT_RECORDED: CallTrace = {
  attempt: () => NO_ATTEMPT,
  refused: () => undefined,
  settled: () => undefined,
};

/** `server.address` / `server.port` of an upstream base URL, parsed once per URL. */
const servers = new Map<string, Attributes>();

function serverOf(baseUrl: string): Attributes {
  let attributes = servers.get(baseUrl);
  if (attributes === undefined) {
    attributes = {};
    try {
      const url = new URL(baseUrl);
      const port = url.port === '' ? (url.protocol === 'https:' ? 443 : 80) : Number(url.port);
      attributes = { 'server.address': url.hostname, 'server.port': port };
    } catch {
      // not a URL (e.g. the built-in demo provider): no server attributes
    }
    if (servers.size < 1000) servers.set(baseUrl, attributes);
  }
  return attributes;
}

/** The error's kind and code only: an error message may quote the upstream, never a span attribute. */
function failWith(span: Span, error: unknown): void {
  const type = isUpstreamError(error) ? `${error.kind}:${error.code}` : isGatewayError(error) ? error.code : 'internal';
  span.setAttribute('error.type', type);
  if (isUpstreamError(error) && error.upstreamStatus !== null)
    span.setAttribute('http.response.status_code', error.upstreamStatus);
  span.setStatus({ code: SpanStatusCode.ERROR, message: type });
}

/** Spans of one model call: the call's (SERVER) and one CLIENT span per upstream attempt. */
class CallSpans implements CallTrace {
  private readonly parent: Context;
  /** The attempt that answered: it ends with the call, carrying the upstream's response. */
  private answered: Span | null = null;

  constructor(
    private readonly tracer: Tracer,
    private readonly propagator: TextMapPropagator,
    private readonly operation: string,
    private readonly span: Span,
  ) {
    this.parent = trace.setSpan(ROOT_CONTEXT, span);
  }

  attempt(target: AttemptTarget): AttemptTrace {
    const { candidate, endpoint, index } = target;
    const span = this.tracer.startSpan(
      `${this.operation} ${candidate.endpoint.upstreamModel}`,
      {
        kind: SpanKind.CLIENT,
        attributes: {
          'gen_ai.operation.name': this.operation,
          'gen_ai.provider.name': candidate.provider.id,
          'gen_ai.request.model': candidate.endpoint.upstreamModel,
          'switchyard.model': candidate.model.slug,
          'switchyard.fallback_index': index,
          ...serverOf(endpoint.baseUrl),
        },
      },
      this.parent,
    );
    const upstreamHeaders: Record<string, string> = {};
    this.propagator.inject(trace.setSpan(this.parent, span), upstreamHeaders, defaultTextMapSetter);
    return {
      upstreamHeaders,
      answered: () => {
        this.answered = span;
      },
      failed: (error) => {
        failWith(span, error);
        span.end();
      },
    };
  }

  refused(error: unknown): void {
    this.span.setAttribute('switchyard.outcome', 'refused');
    if (isGatewayError(error)) this.span.setAttribute('http.response.status_code', error.status);
    // A refusal the client caused (4xx) is not the server's failure; anything else is.
    if (isGatewayError(error) && error.status < 500) this.span.setAttribute('error.type', error.code);
    else failWith(this.span, error);
    this.span.end();
  }

  settled(g: GenerationRecord, error: GatewayError | null): void {
    const outcome = outcomeOf(g, error);
    const response: Attributes = {
      'gen_ai.usage.input_tokens': g.promptTokens,
      'gen_ai.usage.output_tokens': g.completionTokens,
    };
    if (g.finishReason !== null) response['gen_ai.response.finish_reasons'] = [g.finishReason];
    const served = this.answered;
    if (served !== null) {
      served.setAttributes(response);
      served.setAttribute('gen_ai.response.model', g.upstreamModel);
      if (g.upstreamId !== null) served.setAttribute('gen_ai.response.id', g.upstreamId);
      if (outcome === 'error' && error !== null) failWith(served, error);
      served.end();
    }
    const span = this.span;
    span.setAttributes(response);
    span.setAttributes({
      'gen_ai.response.id': g.id,
      'switchyard.outcome': outcome,
      'switchyard.cost_usd': g.costUsd,
      'switchyard.attempts': g.attempts.length,
      'switchyard.stream': g.streamed,
      'switchyard.usage_estimated': g.usageEstimated,
      'switchyard.filter_flags': g.flags,
      'switchyard.generation_id': g.id,
      'switchyard.request_id': g.requestId,
      'switchyard.workspace_id': g.workspaceId,
    });
    if (g.providerId !== '') {
      span.setAttribute('gen_ai.provider.name', g.providerId);
      span.setAttribute('gen_ai.response.model', g.model);
    }
    if (g.reasoningTokens > 0) span.setAttribute('switchyard.usage.reasoning_tokens', g.reasoningTokens);
    if (g.cachedTokens > 0) span.setAttribute('gen_ai.usage.cache_read.input_tokens', g.cachedTokens);
    if (g.presetId !== null) span.setAttribute('switchyard.preset_id', g.presetId);
    if (outcome === 'error' && error !== null) {
      span.setAttribute('http.response.status_code', error.status);
      failWith(span, error);
    } else if (outcome === 'error') {
      span.setAttribute('error.type', 'stream');
      span.setStatus({ code: SpanStatusCode.ERROR, message: 'stream' });
    }
    span.end();
  }
}

/**
 * Opens a call's span (SERVER: the gateway serves the call), a child of the client's W3C trace
 * context when its headers carry one. Attributes follow the GenAI semantic conventions; they
 * hold model names, counts, ids and codes, never prompt or completion text.
 */
export function startCallSpans(tracer: Tracer, propagator: TextMapPropagator, start: CallTraceStart): CallTrace {
  const operation = OPERATION[start.kind];
  const parent = start.headers === undefined ? ROOT_CONTEXT : extract(propagator, start.headers);
  const span = tracer.startSpan(
    start.model === '' ? operation : `${operation} ${start.model}`,
    {
      kind: SpanKind.SERVER,
      attributes: {
        'gen_ai.operation.name': operation,
        'gen_ai.request.model': start.model,
        'switchyard.key_hash': start.keyHash.slice(0, KEY_PREFIX),
      },
    },
    parent,
  );
  return span.isRecording() ? new CallSpans(tracer, propagator, operation, span) : NOT_RECORDED;
}

function extract(propagator: TextMapPropagator, headers: TraceHeaders): Context {
  return headers.traceparent === undefined
    ? ROOT_CONTEXT
    : propagator.extract(ROOT_CONTEXT, headers, defaultTextMapGetter);
}
