import type { CallKind, NativeRequest } from '../canonical/index.js';
import { requireServes, type Catalog, type ModelService } from '../catalog/index.js';
import { nowMs, type Clock } from '../domain/common/clock.js';
import { randomHex } from '../domain/common/ids.js';
import { NO_RATE_ADMISSION, type RateAdmission, type RateBook } from '../domain/accounting/rate-book.js';
import type { ApiType, Meter, Reservation } from '../domain/accounting/types.js';
import type { KeyRecord } from '../domain/keys/types.js';
import { noPresets, type AppliedPreset, type PresetResolver, type PresetTarget } from '../domain/presets/index.js';
import {
  planRoute,
  refusalToError,
  validateProviderPreferences,
  type EndpointHealth,
  type RouteCandidate,
  type RouteRefusal,
} from '../domain/routing/index.js';
import { errors } from '../errors/index.js';
import type { TextSegment } from '../filters/index.js';
import type { ProviderRegistry } from '../providers/index.js';
import type { CallPolicy, CallPolicyResolver } from './call-policy.js';
import { screenRequest, screenTexts } from './content-scan.js';
import { anyNative, candidateTakes } from './native.js';
import { estimateCost } from './cost.js';
import { STRATEGIES, type BodyOf, type KindStrategy } from './kinds/index.js';
import { UNKNOWN_CALLER, type CallerInfo } from './caller.js';

export interface PrepareDeps {
  catalog: Catalog;
  providers: ProviderRegistry;
  health: EndpointHealth;
  meter: Meter;
  policy: CallPolicyResolver;
  /** Guardrail rate limits (absent: none are enforced). */
  rates?: RateBook;
  presets?: PresetResolver;
  /** Forward a request whose content filter threw instead of refusing it (default false: fail closed). */
  filtersFailOpen?: boolean;
  clock: Clock;
}

/** One model call after its policy, preset, routing plan, screening and budget reservation; not yet sent upstream. */
export interface PreparedCall<K extends CallKind> {
  kind: K;
  strategy: KindStrategy<K>;
  key: KeyRecord;
  /** The body as sent upstream: preset merged, content filters' redactions applied. */
  body: BodyOf<K>;
  /**
   * The client's body for candidates that speak its dialect (preset merged, redactions applied;
   * `body` is its chat), or null: no candidate speaks it, or the format is the canonical one.
   */
  native: NativeRequest | null;
  /** The texts of that body, as the content filters screened them (for a usage estimate). */
  texts: readonly TextSegment[];
  preset: AppliedPreset | null;
  /** Content-filter flags (e.g. prompt injection) recorded on the generation and in a header. */
  flags: string[];
  candidates: readonly RouteCandidate[];
  reservation: Reservation;
  /** The rate-limit counts this call took (its tokens are added when it settles). */
  rates: RateAdmission;
  generationId: string;
  requestId: string;
  apiType: ApiType;
  startedAt: number;
  stream: boolean;
  caller: CallerInfo;
}

/** What a model must serve to take a call of each kind. */
const SERVICE: Readonly<Record<CallKind, ModelService>> = {
  chat: 'chat',
  completion: 'chat',
  embeddings: 'embeddings',
};

const newGenerationId = (): string => `gen-${Date.now()}-${randomHex(10)}`;

/** Length of the texts joined by newlines, without building the string. */
function promptChars(texts: readonly TextSegment[]): number {
  let n = Math.max(0, texts.length - 1);
  for (const t of texts) n += t.text.length;
  return n;
}

/** A routing refusal as the client sees it; a guardrail rule's 403 also names the guardrails that set it. */
function policyRefusal(refusal: RouteRefusal, policy: CallPolicy) {
  const error = refusalToError(refusal);
  if (refusal.kind === 'policy' && error.metadata !== null)
    error.metadata.guardrail_ids = [...(policy.ruleSources[refusal.rule] ?? [])];
  return error;
}

/**
 * Accepts or refuses a call: preset merged, body rules, provider preferences, the key's
 * guardrail policy, the routing plan narrowed by it, content filters, the candidates that can
 * carry the body, then the budget reservation. Throws a GatewayError (nothing reserved, nothing
 * recorded) when refused.
 */
export async function prepareCall<K extends CallKind>(
  deps: PrepareDeps,
  input: {
    kind: K;
    body: BodyOf<K>;
    native?: NativeRequest;
    key: KeyRecord;
    requestId: string;
    apiType: ApiType;
    caller?: CallerInfo;
  },
): Promise<PreparedCall<K>> {
  const { kind, key } = input;
  const strategy: KindStrategy<K> = STRATEGIES[kind];
  const presets = deps.presets ?? noPresets;
  let native = input.native ?? null;
  let applied: { body: BodyOf<K>; preset: AppliedPreset | null };
  const nativeMerge = native?.mergePreset;
  if (native !== null && nativeMerge !== undefined) {
    // The preset is merged into the client's body as its dialect says it; the chat is its translation.
    const merged = !references(presets, native.body)
      ? { body: native.body, preset: null }
      : await presets.apply({
          kind,
          key,
          body: native.body,
          merge: (b, version) => nativeMerge(b, version) as PresetTarget,
        });
    if (merged.preset !== null) native = native.with(merged.body);
    applied = { body: chatOf(native), preset: merged.preset };
  } else {
    applied = !references(presets, input.body)
      ? { body: input.body, preset: null }
      : await presets.apply({ kind, key, body: input.body, merge: strategy.mergePreset });
    // A dialect without a preset merge of its own: a call with a preset is sent as its chat.
    if (applied.preset !== null) native = null;
  }
  let body = applied.body;
  if (native === null) strategy.check(body);
  else if (native.untranslatable === null) {
    // A chat its dialect decoded but the chat rules refuse cannot be sent translated: native candidates only.
    try {
      strategy.check(body);
    } catch (error) {
      native = { ...native, untranslatable: error instanceof Error ? error : errors.invalidRequest(String(error)) };
    }
  }
  const prefs = validateProviderPreferences(body.provider ?? undefined);
  if (!prefs.ok) {
    const first = prefs.errors[0];
    throw errors.invalidRequest(
      `Invalid provider preferences: ${first?.field ?? 'provider'}: ${first?.message ?? 'invalid'}`,
      { field: first?.field ?? 'provider', issues: prefs.errors },
    );
  }
  if (body.model === undefined && body.models === undefined) {
    throw errors.invalidRequest('model is required', { field: 'model' });
  }
  requireServes(
    deps.catalog,
    [...(body.model === undefined ? [] : [body.model]), ...(body.models ?? [])],
    SERVICE[kind],
  );
  const policy = deps.policy.cached?.(key) ?? (await deps.policy.resolve(key));
  const plan = planRoute({
    catalog: deps.catalog,
    model: body.model,
    models: body.models,
    preferences: prefs.value,
    policy: policy.routing,
    // Only require_parameters looks at which parameters the request sets.
    requestParameters: prefs.value.requireParameters ? setFields(body) : [],
    health: deps.health,
  });
  if (!plan.ok) throw policyRefusal(plan.refusal, policy);
  // The client's body is kept only when a candidate speaks its dialect (or it has no chat translation).
  if (native !== null && native.untranslatable === null && !anyNative(native, plan.candidates)) native = null;
  let flags: string[] = [];
  let texts: readonly TextSegment[];
  const unscreenable = policy.filters === null ? null : (strategy.unscreenable?.(body) ?? null);
  if (unscreenable !== null)
    throw errors.invalidRequest(
      `${unscreenable}: token ids cannot be screened by this key's content filters; send text`,
      { field: unscreenable },
    );
  const failOpen = deps.filtersFailOpen === true;
  if (policy.filters !== null && native !== null) {
    // The client's body is what the model reads: screened and redacted in place, its chat decoded again.
    const screened = screenTexts(native.body, native.texts(), { filters: policy.filters, failOpen });
    if (screened.body !== native.body) native = native.with(screened.body);
    body = chatOf(native);
    flags = screened.flags;
    texts = screened.texts;
  } else if (policy.filters !== null) {
    const screened = screenRequest({ kind, body, filters: policy.filters, failOpen });
    body = screened.body;
    flags = screened.flags;
    texts = screened.texts;
  } else texts = native !== null ? native.texts().segments : strategy.texts(body).segments;
  let candidates = plan.candidates;
  if (native?.untranslatable != null) {
    // Only an upstream that speaks the client's dialect can take this body; none in the plan: refused.
    const dialect = native.dialect;
    candidates = candidates.filter((c) => candidateTakes(c, dialect));
    if (candidates.length === 0) throw native.untranslatable;
  }
  const estimate = estimateCost({
    promptChars: promptChars(texts),
    maxTokens: strategy.maxOutputTokens(body),
    candidates,
  });
  // Without rate limits there is nothing to admit (and no promise to wait for).
  const rates =
    deps.rates === undefined || policy.rateLimits.length === 0
      ? NO_RATE_ADMISSION
      : await deps.rates.admit(policy.rateLimits);
  let reservation: Reservation;
  try {
    reservation = await deps.meter.reserve(key, estimate, policy.budgets);
  } catch (error) {
    deps.rates?.release(rates);
    throw error;
  }
  return {
    kind,
    strategy,
    key,
    body,
    native,
    texts,
    preset: applied.preset,
    flags,
    candidates,
    reservation,
    rates,
    generationId: newGenerationId(),
    requestId: input.requestId,
    apiType: input.apiType,
    startedAt: nowMs(deps.clock),
    stream: body.stream === true,
    caller: input.caller ?? UNKNOWN_CALLER,
  };
}

/** False when the resolver knows `apply` would return the body unchanged: no promise to wait for. */
function references(presets: PresetResolver, body: PresetTarget): boolean {
  return presets.references?.(body) ?? true;
}

/** The chat a native call is decoded to (only chat calls keep a client's body beside theirs). */
function chatOf<K extends CallKind>(native: NativeRequest): BodyOf<K> {
  return native.chat as BodyOf<K>;
}

function setFields(body: Readonly<Record<string, unknown>>): string[] {
  return Object.keys(body).filter((k) => body[k] !== undefined);
}
