import { estimateTokens, type CanonicalUsage, type ChatMessage } from '../canonical/index.js';
import { toCanonicalChatRequest } from '../canonical/index.js';
import type { Catalog } from '../catalog/index.js';
import type { Clock } from '../domain/common/clock.js';
import { randomHex } from '../domain/common/ids.js';
import type { GenerationRecord, Meter, Reservation } from '../domain/accounting/types.js';
import type { KeyRecord } from '../domain/keys/types.js';
import {
  planRoute,
  refusalToError,
  validateProviderPreferences,
  type EndpointHealth,
  type RouteCandidate,
  type RouteRefusal,
} from '../domain/routing/index.js';
import { errors } from '../errors/index.js';
import type { ProviderEndpointConfig, ProviderRegistry } from '../providers/index.js';
import { AttemptsFailed, firstSuccessful, type Attempt } from './attempts.js';
import { costOf, estimateCost, type CallCost } from './cost.js';
import { checkMessages } from './message-rules.js';
import type { TextSegment } from '../filters/index.js';
import { collectTexts, screenRequest } from './content-scan.js';
import type { PolicyResolver, RequestPolicy } from './policy.js';
import { noPresets, type AppliedPreset, type PresetResolver } from './preset-hook.js';
import type { ChatRequestBody, CompletionRequestBody } from './request-schema.js';
import { toCanonicalCompletionRequest, type CallKind, type ModelCallBody } from './request-kinds.js';

export interface GatewayDeps {
  catalog: Catalog;
  providers: ProviderRegistry;
  health: EndpointHealth;
  meter: Meter;
  policy: PolicyResolver;
  /** Forward a request whose content filter threw instead of refusing it (default false: fail closed). */
  filtersFailOpen?: boolean;
  /** Merges a referenced preset into the body before anything else looks at it. */
  presets?: PresetResolver;
  clock: Clock;
  /**
   * Told of every settled generation (metrics, the call log), after the current I/O turn: the
   * answer is written first, so formatting the log line is not part of the call's latency. Must
   * not throw.
   */
  observe?: (generation: GenerationRecord) => void;
}

/** One model call after validation, routing and budget reservation; not yet sent upstream. */
export interface PreparedCall {
  kind: CallKind;
  key: KeyRecord;
  /** The body as sent upstream: preset merged, content filters' redactions applied. */
  body: ModelCallBody;
  preset: AppliedPreset | null;
  /** Content-filter flags (e.g. prompt injection) recorded on the generation and in a header. */
  flags: string[];
  candidates: readonly RouteCandidate[];
  reservation: Reservation;
  generationId: string;
  requestId: string;
  startedAt: number;
  stream: boolean;
}

export interface SettleInput {
  call: PreparedCall;
  candidate: RouteCandidate | null;
  attempts: Attempt[];
  usage: CanonicalUsage | null;
  finishReason: string | null;
  nativeFinishReason?: string | null;
  upstreamId: string | null;
  firstByteMs: number;
  cancelled: boolean;
}

const newGenerationId = (): string => `gen-${Date.now()}-${randomHex(10)}`;

/** The text a call sends, for estimates: the same texts the content filters screen. */
function promptText(kind: CallKind, body: ModelCallBody): string {
  return collectTexts(kind, body)
    .segments.map((s) => s.text)
    .join('\n');
}

/** Length of those texts joined by newlines, without building the string. */
function promptChars(texts: readonly TextSegment[]): number {
  let n = Math.max(0, texts.length - 1);
  for (const t of texts) n += t.text.length;
  return n;
}

/** A routing refusal as the client sees it; a guardrail rule's 403 also names the guardrails that set it. */
function policyRefusal(refusal: RouteRefusal, policy: RequestPolicy) {
  const error = refusalToError(refusal);
  if (refusal.kind === 'policy' && error.metadata !== null)
    error.metadata.guardrail_ids = [...(policy.ruleSources[refusal.rule] ?? [])];
  return error;
}

/** Validation → policy → routing → content filters → reservation → upstream attempts with fallback → metering. */
export class Gateway {
  constructor(private readonly deps: GatewayDeps) {}

  get catalog(): Catalog {
    return this.deps.catalog;
  }

  async prepare(options: {
    kind: CallKind;
    key: KeyRecord;
    body: ModelCallBody;
    requestId: string;
  }): Promise<PreparedCall> {
    const { kind, key } = options;
    const applied = await (this.deps.presets ?? noPresets).apply({ kind, key, body: options.body });
    let body = applied.body;
    if (kind === 'chat') checkMessages((body as ChatRequestBody).messages);
    const prefs = validateProviderPreferences(body.provider ?? undefined);
    if (!prefs.ok) {
      const first = prefs.errors[0];
      throw errors.invalidRequest(
        `Invalid provider preferences: ${first?.field ?? 'provider'}: ${first?.message ?? 'invalid'}`,
        {
          field: first?.field ?? 'provider',
          issues: prefs.errors,
        },
      );
    }
    if (body.model === undefined && body.models === undefined) {
      throw errors.invalidRequest('model is required', { field: 'model' });
    }
    const policy = await this.deps.policy.resolve(key);
    // Only require_parameters looks at which parameters the request sets.
    const requestParameters = prefs.value.requireParameters
      ? Object.keys(body).filter((k) => body[k as keyof typeof body] !== undefined)
      : [];
    const plan = planRoute({
      catalog: this.deps.catalog,
      model: body.model,
      models: body.models,
      preferences: prefs.value,
      policy: policy.routing,
      requestParameters,
      health: this.deps.health,
    });
    if (!plan.ok) throw policyRefusal(plan.refusal, policy);
    let flags: string[] = [];
    let texts: readonly TextSegment[] | null = null;
    if (policy.filters !== null) {
      const screened = screenRequest({
        kind,
        body,
        filters: policy.filters,
        failOpen: this.deps.filtersFailOpen === true,
      });
      body = screened.body;
      flags = screened.flags;
      texts = screened.texts;
    }
    const maxTokens =
      (kind === 'chat' ? (body as ChatRequestBody).max_completion_tokens : null) ?? body.max_tokens ?? null;
    const estimate = estimateCost({
      promptChars: promptChars(texts ?? collectTexts(kind, body).segments),
      maxTokens,
      candidates: plan.candidates,
    });
    const reservation = await this.deps.meter.reserve(key, estimate, policy.budgets);
    return {
      kind,
      key,
      body,
      preset: applied.preset,
      flags,
      candidates: plan.candidates,
      reservation,
      generationId: newGenerationId(),
      requestId: options.requestId,
      startedAt: this.deps.clock.now().getTime(),
      stream: body.stream === true,
    };
  }

  /** Runs the attempts for a prepared call; `open` performs one attempt against one endpoint. */
  async attempt<T>(
    call: PreparedCall,
    signal: AbortSignal,
    open: (c: RouteCandidate, endpoint: ProviderEndpointConfig) => Promise<T>,
  ) {
    try {
      return await firstSuccessful({ candidates: call.candidates, health: this.deps.health, signal, call: open });
    } catch (error) {
      const attempts = error instanceof AttemptsFailed ? error.attempts : [];
      this.settle({
        call,
        candidate: null,
        attempts,
        usage: null,
        finishReason: 'error',
        upstreamId: null,
        firstByteMs: 0,
        cancelled: signal.aborted,
      });
      throw error instanceof AttemptsFailed ? error.last : error;
    }
  }

  chatRequest(call: PreparedCall, candidate: RouteCandidate) {
    return toCanonicalChatRequest(
      call.body as unknown as Record<string, unknown> & { messages: ChatMessage[] },
      candidate.endpoint.upstreamModel,
    );
  }

  completionRequest(call: PreparedCall, candidate: RouteCandidate) {
    return toCanonicalCompletionRequest(call.body as CompletionRequestBody, candidate.endpoint.upstreamModel);
  }

  adapterFor(candidate: RouteCandidate) {
    return this.deps.providers.get(candidate.provider.kind);
  }

  /** Usage counted by us with the tokenizer when the upstream reported none, e.g. a cut stream. */
  estimatedUsage(call: PreparedCall, completionTokens: number): CanonicalUsage {
    const prompt = estimateTokens(promptText(call.kind, call.body));
    const completion = completionTokens;
    return { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion, estimated: true };
  }

  /** Records the generation and its cost; returns the cost for the response. Never throws. */
  settle(input: SettleInput): CallCost {
    const { call, candidate, usage } = input;
    const cost =
      candidate !== null && usage !== null
        ? costOf(usage, candidate.endpoint.pricing)
        : { prompt: 0, completion: 0, total: 0 };
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
      upstreamId: input.upstreamId,
      apiType: 'completions',
      streamed: call.stream,
      cancelled: input.cancelled,
      finishReason: input.finishReason,
      nativeFinishReason: input.nativeFinishReason ?? null,
      promptTokens: usage?.prompt_tokens ?? 0,
      completionTokens: usage?.completion_tokens ?? 0,
      reasoningTokens: usage?.completion_tokens_details?.reasoning_tokens ?? 0,
      cachedTokens: usage?.prompt_tokens_details?.cached_tokens ?? 0,
      usageEstimated: usage?.estimated === true,
      promptCostUsd: cost.prompt,
      completionCostUsd: cost.completion,
      costUsd: cost.total,
      latencyMs: Math.round(input.firstByteMs),
      generationTimeMs: now.getTime() - call.startedAt,
      presetId: call.preset?.id ?? null,
      presetVersion: call.preset?.version ?? null,
      flags: call.flags,
      attempts: input.attempts,
      createdAt: now.toISOString(),
    };
    this.deps.meter.settle(call.reservation, generation);
    this.observeSoon(generation);
    return cost;
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
