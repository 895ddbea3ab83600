/**
 * The request side of the policy floor (floor-proxy.ts): exactly the work the benchmark's full
 * policy makes necessary for any gateway design, done with Switchyard's own functions, and
 * nothing else. Every piece answers to a rule of the policy: the key is known only by its digest
 * (digest + lookup), the body must be a valid chat request (the chat route's compiled schema),
 * the guardrail allows models and providers (two set lookups), its filters screen and redact the
 * texts before they leave (the gateway's own compiled set and scan), the key and the guardrail
 * have budgets (a check against in-memory spend), the call needs an id, and the upstream gets
 * the (possibly redacted) body for its own model (one `JSON.stringify`).
 */
import { ChatRequestSchema, type CanonicalUsage, type ChatRequestBody } from '../../src/canonical/index.js';
import { randomHex } from '../../src/domain/common/ids.js';
import { digestToken } from '../../src/domain/keys/tokens.js';
import { isGatewayError } from '../../src/errors/index.js';
import { compileFilterSet, type CompiledFilterSet } from '../../src/filters/index.js';
import { screenRequest, type Screened } from '../../src/gateway/content-scan.js';
import { costOf, DEFAULT_RESERVED_COMPLETION_TOKENS, usageWithCost, type CallCost } from '../../src/gateway/cost.js';
import { bodyValidator, type Validator } from '../../src/http/validation.js';
import { BENCH_MODEL, BENCH_PROVIDER, UPSTREAM_MODEL } from './payloads.js';
import { BENCH_PRICING, GUARDRAIL } from './switchyard-target.js';

/** A key as the floor holds it: its digest's entry, its limit and what it has spent. */
export interface FloorKey {
  readonly digest: string;
  readonly limitUsd: number;
  spentUsd: number;
}

export interface FloorPolicy {
  readonly keys: ReadonlyMap<string, FloorKey>;
  readonly validate: Validator;
  readonly filters: CompiledFilterSet;
  readonly allowedModels: ReadonlySet<string>;
  readonly allowedProviders: ReadonlySet<string>;
  readonly guardrailLimitUsd: number;
  /** The guardrail's spend (one guardrail, one key here). */
  guardrailSpentUsd: number;
}

/** The benchmark's policy for one key token: the guardrail of switchyard-target.ts, compiled once. */
export function floorPolicy(token: string): FloorPolicy {
  const digest = digestToken(token);
  return {
    keys: new Map([[digest, { digest, limitUsd: 1_000_000, spentUsd: 0 }]]),
    validate: bodyValidator(ChatRequestSchema),
    filters: compileFilterSet({ builtins: GUARDRAIL.content_filter_builtins, custom: GUARDRAIL.content_filters }),
    allowedModels: new Set(GUARDRAIL.allowed_models),
    allowedProviders: new Set(GUARDRAIL.allowed_providers),
    guardrailLimitUsd: GUARDRAIL.limit_usd,
    guardrailSpentUsd: 0,
  };
}

/** A call the policy let through: what the answer side needs. */
export interface Admitted {
  key: FloorKey;
  generationId: string;
  stream: boolean;
  /** The upstream request body (redacted texts, the upstream's model). */
  upstreamBody: string;
}

export interface Refused {
  status: number;
  message: string;
}

const refused = (status: number, message: string): Refused => ({ status, message });

/** The client's request through the policy: the call to send upstream, or the refusal to answer. */
export function admit(policy: FloorPolicy, authorization: string | undefined, raw: string): Admitted | Refused {
  const key =
    authorization?.startsWith('Bearer ') === true ? policy.keys.get(digestToken(authorization.slice(7))) : undefined;
  if (key === undefined) return refused(401, 'invalid API key');
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    return refused(400, 'body is not JSON');
  }
  const valid = policy.validate(parsed);
  if (valid !== true) return refused(400, valid.error.message);
  const body = parsed as ChatRequestBody;
  const model = body.model ?? '';
  if (!policy.allowedModels.has(model) || !policy.allowedProviders.has(BENCH_PROVIDER))
    return refused(403, 'model not allowed');
  if (model !== BENCH_MODEL) return refused(404, 'model not found');
  let screened: Screened<ChatRequestBody>;
  try {
    screened = screenRequest({ kind: 'chat', body, filters: policy.filters, failOpen: false });
  } catch (error) {
    if (isGatewayError(error)) return refused(error.status, error.message);
    throw error;
  }
  let promptChars = 0;
  for (const t of screened.texts) promptChars += t.text.length;
  const maxTokens = body.max_completion_tokens ?? body.max_tokens ?? DEFAULT_RESERVED_COMPLETION_TOKENS;
  const worst = costOf(
    { prompt_tokens: Math.ceil(promptChars / 4), completion_tokens: maxTokens },
    BENCH_PRICING,
  ).total;
  if (key.spentUsd + worst > key.limitUsd || policy.guardrailSpentUsd + worst > policy.guardrailLimitUsd)
    return refused(402, 'budget exhausted');
  const stream = body.stream === true;
  const upstream = stream
    ? { ...screened.body, model: UPSTREAM_MODEL, stream_options: { include_usage: true } }
    : { ...screened.body, model: UPSTREAM_MODEL };
  return {
    key,
    generationId: `gen-${Date.now()}-${randomHex(10)}`,
    stream,
    upstreamBody: JSON.stringify(upstream),
  };
}

/** The answer's usage with its cost (the gateway's relabel), the key and the guardrail charged. */
export function charge(policy: FloorPolicy, key: FloorKey, usage: CanonicalUsage): ReturnType<typeof usageWithCost> {
  const cost: CallCost = costOf(usage, BENCH_PRICING);
  key.spentUsd += cost.total;
  policy.guardrailSpentUsd += cost.total;
  return usageWithCost(usage, cost);
}
