import { estimatedUsage, type CallKind, type CanonicalUsage } from '../canonical/index.js';
import type { GenerationRecord } from '../domain/accounting/types.js';
import type { RouteCandidate } from '../domain/routing/index.js';
import { errors, isGatewayError, type GatewayError } from '../errors/index.js';
import type { CallContext, ProviderEndpointConfig } from '../providers/index.js';
import { AttemptsFailed, firstSuccessful, type Attempt, type AttemptOutcome } from './attempts.js';
import type { AcceptedCall, CallInput, CallSink, ChunkOf } from './call.js';
import { traceAttempts, type CallTrace, type CallTracer } from './call-tracer.js';
import { costOf, type CallCost } from './cost.js';
import { prepareCall, type PrepareDeps, type PreparedCall } from './prepare.js';
import { nativeFor } from './native.js';
import { relabelAnswer, relabelChunk } from './relabel.js';

export interface GatewayDeps extends PrepareDeps {
  /**
   * Told of every settled generation (metrics, the call log), after the current I/O turn: the
   * answer is written first, so formatting the log line is not part of the call's latency. Must
   * not throw.
   */
  observe?: (generation: GenerationRecord) => void;
  /** Spans of model calls and their attempts; absent when tracing is off. */
  tracer?: CallTracer;
}

/** What a call came to, filled in as it goes and recorded once when it is settled. */
interface Outcome {
  candidate: RouteCandidate | null;
  attempts: Attempt[];
  usage: CanonicalUsage | null;
  /** The cost of `usage`, computed once, when usage became known. */
  cost: CallCost | null;
  finishReason: string | null;
  nativeFinishReason: string | null;
  upstreamId: string | null;
  firstByteMs: number;
  cancelled: boolean;
  /** The error the client got after the call was accepted, if any. */
  error: GatewayError | null;
  trace: CallTrace | null;
  /** Settled already (a JSON answer settles before it is sent); the `finally` then does nothing. */
  settled: boolean;
}

const NO_COST: CallCost = { prompt: 0, completion: 0, total: 0 };

/**
 * The model-call use case. `run` takes a decoded call and a way to open its sink, and owns the
 * rest: prepare (preset, policy, routing plan, screening, reservation) → attempts with fallback
 * → adapter → relabelling → one cost → one settle → observation (metrics, the call's log line,
 * its generation record).
 */
export class Gateway {
  private readonly tracer: CallTracer | null;

  constructor(private readonly deps: GatewayDeps) {
    this.tracer = deps.tracer ?? null;
  }

  /**
   * Runs one model call. Rejects with a GatewayError when the call is refused before it is
   * accepted (nothing reserved or recorded); once accepted, the call is settled and observed
   * exactly once, whatever happens, and errors reach the client through the sink.
   */
  async run<K extends CallKind>(input: CallInput<K>): Promise<void> {
    const trace =
      this.tracer === null
        ? null
        : this.tracer.startCall({
            kind: input.kind,
            model: input.body.model ?? input.body.models?.[0] ?? '',
            keyHash: input.key.hash,
            headers: input.traceHeaders,
          });
    let call: PreparedCall<K>;
    try {
      call = await prepareCall(this.deps, input);
    } catch (error) {
      trace?.refused(error);
      throw error;
    }
    const accepted: AcceptedCall = {
      kind: call.kind,
      generationId: call.generationId,
      requestId: call.requestId,
      flags: call.flags,
      stream: call.stream,
    };
    const sink = input.open(accepted);
    const outcome: Outcome = {
      candidate: null,
      attempts: [],
      usage: null,
      cost: null,
      finishReason: 'error',
      nativeFinishReason: null,
      upstreamId: null,
      firstByteMs: 0,
      cancelled: false,
      error: null,
      trace,
      settled: false,
    };
    try {
      if (call.stream) await this.stream(call, input.signal, sink, outcome);
      else await this.answer(call, input.signal, sink, outcome);
    } catch (error) {
      outcome.error ??= isGatewayError(error) ? error : errors.internal(error);
      throw error;
    } finally {
      this.settle(call, outcome);
    }
    sink.end();
  }

  /** The attempts with fallback; on failure records them on `outcome` and returns the error for the client. */
  private async attempts<K extends CallKind, T>(
    call: PreparedCall<K>,
    signal: AbortSignal,
    outcome: Outcome,
    send: (candidate: RouteCandidate, endpoint: ProviderEndpointConfig, ctx: CallContext) => Promise<T>,
  ): Promise<AttemptOutcome<T> | GatewayError> {
    try {
      const done = await firstSuccessful({
        candidates: call.candidates,
        health: this.deps.health,
        signal,
        call: traceAttempts(outcome.trace, (c, endpoint, traceHeaders) =>
          send(c, endpoint, {
            signal,
            requestId: call.requestId,
            traceHeaders,
            forwardHeaders: call.caller.forwardHeaders,
            maxOutputTokens: c.endpoint.maxCompletionTokens,
          }),
        ),
      });
      outcome.candidate = done.candidate;
      outcome.attempts = done.attempts;
      outcome.firstByteMs = done.firstByteMs;
      return done;
    } catch (error) {
      outcome.attempts = error instanceof AttemptsFailed ? error.attempts : [];
      outcome.cancelled = signal.aborted;
      const last: unknown = error instanceof AttemptsFailed ? error.last : error;
      outcome.error = isGatewayError(last) ? last : errors.internal(last);
      return outcome.error;
    }
  }

  private async answer<K extends CallKind>(
    call: PreparedCall<K>,
    signal: AbortSignal,
    sink: CallSink<K>,
    outcome: Outcome,
  ): Promise<void> {
    const { strategy } = call;
    const done = await this.attempts(call, signal, outcome, (c, endpoint, ctx) => {
      const native = nativeFor(call.native, c);
      if (native !== null && strategy.sendNative !== undefined)
        return strategy.sendNative(this.adapter(c), endpoint, native, ctx);
      return strategy.send(this.adapter(c), endpoint, strategy.request(call.body, c.endpoint.upstreamModel), ctx);
    });
    if (!('value' in done)) return sink.fail(done, call.body.model ?? '');
    const { value, candidate } = done;
    const finish = call.strategy.finish(value);
    const cost = costOf(value.usage, candidate.endpoint.pricing);
    outcome.usage = value.usage;
    outcome.cost = cost;
    outcome.finishReason = finish.reason;
    outcome.nativeFinishReason = finish.native;
    outcome.upstreamId = value.id;
    // The charge is in the ledger journal before the answer's first byte goes out (docs/metering.md);
    // what only the process needs (rate counts, the trace, the call's log line) follows the answer.
    const generation = this.record(call, outcome);
    try {
      sink.answer(relabelAnswer(value, { generationId: call.generationId, candidate, cost }));
    } finally {
      this.afterRecord(call, outcome, generation);
    }
  }

  private async stream<K extends CallKind>(
    call: PreparedCall<K>,
    signal: AbortSignal,
    sink: CallSink<K>,
    outcome: Outcome,
  ): Promise<void> {
    const { strategy } = call;
    // The prompt as the one usage estimate counts it: of the canonical request sent, or the screened texts.
    const prompts = new Map<RouteCandidate, () => string>();
    const done = await this.attempts(call, signal, outcome, (c, endpoint, ctx) => {
      const native = nativeFor(call.native, c);
      if (native !== null && strategy.streamNative !== undefined)
        return strategy.streamNative(this.adapter(c), endpoint, native, ctx);
      const req = strategy.request(call.body, c.endpoint.upstreamModel);
      prompts.set(c, () => strategy.promptText(req));
      return strategy.sendStream(this.adapter(c), endpoint, req, ctx);
    });
    if (!('value' in done)) return sink.fail(done, call.body.model ?? '');
    sink.begin();
    const { candidate } = done;
    const pricing = candidate.endpoint.pricing;
    const label = { generationId: call.generationId, candidate };
    const relabel = (chunk: ChunkOf<K>) =>
      relabelChunk(chunk, label, chunk.usage === undefined ? null : costOf(chunk.usage, pricing));
    const streamed: string[] = [];
    // From the finish reason on, chunks (usage, the format's closing events) wait for the settle.
    const held: ChunkOf<K>[] = [];
    outcome.finishReason = null;
    try {
      for await (const chunk of done.value) {
        outcome.upstreamId ??= chunk.id;
        outcome.finishReason = strategy.chunkFinish(chunk) ?? outcome.finishReason;
        if (chunk.usage !== undefined) outcome.usage = chunk.usage;
        else if (outcome.usage === null) strategy.keepText(chunk, streamed);
        if (outcome.finishReason !== null) {
          held.push(chunk);
          continue;
        }
        const drained = sink.chunk(relabel(chunk));
        if (drained !== undefined) await drained;
        if (signal.aborted) break;
      }
    } catch (raw) {
      outcome.finishReason = 'error';
      outcome.error = isGatewayError(raw) ? raw : errors.badGateway('Provider stream failed');
    }
    outcome.cancelled = signal.aborted;
    if (outcome.usage === null) {
      // The one estimate of a stream the upstream reported no usage for; a whole stream's last chunk carries it.
      const prompt = prompts.get(candidate)?.() ?? call.texts.map((t) => t.text).join('\n');
      outcome.usage = estimatedUsage(prompt, streamed.join(''));
      const last = held.at(-1);
      if (last !== undefined && outcome.error === null) last.usage = outcome.usage;
    }
    outcome.cost = costOf(outcome.usage, pricing);
    // The charge is in the ledger journal before the stream's last event leaves (docs/metering.md).
    this.settle(call, outcome);
    for (const chunk of held) {
      if (signal.aborted) break;
      const drained = sink.chunk(relabel(chunk));
      if (drained !== undefined) await drained;
    }
    if (outcome.error !== null && !signal.aborted) await sink.fail(outcome.error, candidate.model.slug);
  }

  private adapter(candidate: RouteCandidate) {
    return this.deps.providers.get(candidate.provider.kind);
  }

  /** Records the generation and its cost (the meter's batched ledger), then observes it. Never throws. */
  private settle<K extends CallKind>(call: PreparedCall<K>, outcome: Outcome): void {
    if (outcome.settled) return;
    this.afterRecord(call, outcome, this.record(call, outcome));
  }

  /**
   * The settle's part the client's answer waits for: the generation record handed to the meter,
   * which writes it to the ledger journal (the crash guarantee) and queues it for the ledger.
   */
  private record<K extends CallKind>(call: PreparedCall<K>, outcome: Outcome): GenerationRecord {
    outcome.settled = true;
    const { candidate, usage } = outcome;
    const cost =
      outcome.cost ?? (candidate !== null && usage !== null ? costOf(usage, candidate.endpoint.pricing) : NO_COST);
    const now = this.deps.clock.now();
    const generation: GenerationRecord = {
      id: call.generationId,
      requestId: call.requestId,
      keyHash: call.key.hash,
      workspaceId: call.key.workspaceId,
      creatorUserId: call.key.creatorUserId,
      model: candidate?.model.slug ?? call.body.model ?? call.body.models?.[0] ?? '',
      providerId: candidate?.provider.id ?? '',
      upstreamModel: candidate?.endpoint.upstreamModel ?? '',
      upstreamId: outcome.upstreamId,
      apiType: call.apiType,
      streamed: call.stream,
      cancelled: outcome.cancelled,
      finishReason: outcome.finishReason,
      nativeFinishReason: outcome.nativeFinishReason,
      promptTokens: usage?.prompt_tokens ?? 0,
      completionTokens: usage?.completion_tokens ?? 0,
      reasoningTokens: usage?.completion_tokens_details?.reasoning_tokens ?? 0,
      cachedTokens: usage?.prompt_tokens_details?.cached_tokens ?? 0,
      usageEstimated: usage?.estimated === true,
      promptCostUsd: cost.prompt,
      completionCostUsd: cost.completion,
      costUsd: cost.total,
      latencyMs: Math.round(outcome.firstByteMs),
      generationTimeMs: now.getTime() - call.startedAt,
      presetId: call.preset?.id ?? null,
      presetVersion: call.preset?.version ?? null,
      flags: call.flags,
      attempts: outcome.attempts,
      createdAt: now.toISOString(),
      userAgent: call.caller.userAgent,
      sessionId: call.caller.sessionId,
      origin: call.caller.origin,
    };
    this.deps.meter.settle(call.reservation, generation);
    return generation;
  }

  /** The settle's rest, which no answer byte waits for: rate-limit tokens, the trace, observation. */
  private afterRecord<K extends CallKind>(call: PreparedCall<K>, outcome: Outcome, generation: GenerationRecord): void {
    this.deps.rates?.addTokens(call.rates, generation.promptTokens + generation.completionTokens);
    outcome.trace?.settled(generation, outcome.error);
    this.observeSoon(generation);
  }

  /** Settled generations not yet given to `observe`: one `setImmediate` per loop turn for all of them. */
  private unobserved: GenerationRecord[] = [];

  private observeSoon(generation: GenerationRecord): void {
    const observe = this.deps.observe;
    if (observe === undefined) return;
    if (this.unobserved.push(generation) > 1) return;
    setImmediate(() => {
      const batch = this.unobserved;
      this.unobserved = [];
      for (const g of batch) {
        try {
          observe(g);
        } catch {
          // observe must not throw; if it does, one metric or log line is lost, not the process.
        }
      }
    });
  }
}
