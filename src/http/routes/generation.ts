import { Type, type Static } from '@sinclair/typebox';
import type { GenerationRecord, Meter } from '../../domain/accounting/types.js';
import { openRouterApiType } from '../../domain/accounting/api-surface.js';
import { errors } from '../../errors/index.js';
import { Nullable } from '../../canonical/schema-helpers.js';
import { RefusalObject } from '../schemas/analytics.js';
import { ApiSurfaceSchema, errorResponses } from '../schemas/common.js';
import type { App } from '../types.js';

const tags = ['Generations'];

export const GenerationQuery = Type.Object({ id: Type.String({ minLength: 1 }) });

const ProviderResponse = Type.Object({
  status: Nullable(Type.Integer()),
  provider_name: Type.Optional(Type.String()),
  model_permaslug: Type.Optional(Type.String()),
});

/** Every key of the generation object is always emitted (the OpenRouter SDK's parser fails on a missing one). */
export const GenerationObject = Type.Object({
  id: Type.String(),
  created_at: Type.String(),
  model: Type.String(),
  origin: Type.String(),
  /** OpenRouter's enum: `completions` (chat, legacy completions, Messages, Responses) or `embeddings`. */
  api_type: Nullable(Type.Union([Type.Literal('completions'), Type.Literal('embeddings')])),
  /** Switchyard: the surface the client called. */
  api_surface: ApiSurfaceSchema,
  app_id: Nullable(Type.Integer()),
  http_referer: Nullable(Type.String()),
  user_agent: Nullable(Type.String()),
  external_user: Nullable(Type.String()),
  workspace_id: Nullable(Type.String()),
  preset_id: Nullable(Type.String()),
  session_id: Nullable(Type.String()),
  request_id: Nullable(Type.String()),
  provider_name: Nullable(Type.String()),
  router: Nullable(Type.String()),
  streamed: Nullable(Type.Boolean()),
  cancelled: Nullable(Type.Boolean()),
  finish_reason: Nullable(Type.String()),
  native_finish_reason: Nullable(Type.String()),
  data_region: Type.String(),
  is_byok: Type.Boolean(),
  total_cost: Type.Number(),
  usage: Type.Number(),
  upstream_inference_cost: Nullable(Type.Number()),
  cache_discount: Nullable(Type.Number()),
  tokens_prompt: Nullable(Type.Integer()),
  tokens_completion: Nullable(Type.Integer()),
  native_tokens_prompt: Nullable(Type.Integer()),
  native_tokens_completion: Nullable(Type.Integer()),
  native_tokens_reasoning: Nullable(Type.Integer()),
  native_tokens_cached: Nullable(Type.Integer()),
  native_tokens_completion_images: Nullable(Type.Integer()),
  num_media_prompt: Nullable(Type.Integer()),
  num_media_completion: Nullable(Type.Integer()),
  num_input_audio_prompt: Nullable(Type.Integer()),
  num_search_results: Nullable(Type.Integer()),
  num_fetches: Nullable(Type.Integer()),
  latency: Nullable(Type.Number()),
  generation_time: Nullable(Type.Number()),
  moderation_latency: Nullable(Type.Number()),
  service_tier: Nullable(Type.String()),
  upstream_id: Nullable(Type.String()),
  web_search_engine: Nullable(Type.String()),
  response_cache_source_id: Nullable(Type.String()),
  provider_responses: Nullable(Type.Array(ProviderResponse)),
  /** Switchyard: content filters with action `flag` that matched the request (e.g. regex-prompt-injection). */
  content_filter_flags: Type.Array(Type.String()),
  /** Switchyard: why the call was refused before (or instead of) an upstream call; null when it was accepted. */
  refusal: Nullable(RefusalObject),
});
export type GenerationObject = Static<typeof GenerationObject>;

/** Our record in the wire shape; fields we do not track are null. */
export function presentGeneration(g: GenerationRecord): GenerationObject {
  return {
    id: g.id,
    created_at: g.createdAt,
    model: g.model,
    origin: g.origin ?? '',
    api_type: openRouterApiType(g.apiType),
    api_surface: g.apiType,
    app_id: null,
    http_referer: g.origin ?? null,
    user_agent: g.userAgent ?? null,
    external_user: null,
    workspace_id: g.workspaceId,
    preset_id: g.presetId,
    session_id: g.sessionId ?? null,
    request_id: g.requestId,
    provider_name: g.providerId,
    router: null,
    streamed: g.streamed,
    cancelled: g.cancelled,
    finish_reason: g.finishReason,
    native_finish_reason: g.nativeFinishReason,
    data_region: 'global',
    is_byok: false,
    total_cost: g.costUsd,
    usage: g.costUsd,
    upstream_inference_cost: null,
    cache_discount: null,
    tokens_prompt: g.promptTokens,
    tokens_completion: g.completionTokens,
    native_tokens_prompt: g.promptTokens,
    native_tokens_completion: g.completionTokens,
    native_tokens_reasoning: g.reasoningTokens,
    native_tokens_cached: g.cachedTokens,
    native_tokens_completion_images: null,
    num_media_prompt: null,
    num_media_completion: null,
    num_input_audio_prompt: null,
    num_search_results: null,
    num_fetches: null,
    latency: g.latencyMs,
    generation_time: g.generationTimeMs,
    moderation_latency: null,
    service_tier: null,
    upstream_id: g.upstreamId,
    web_search_engine: null,
    response_cache_source_id: null,
    provider_responses: g.attempts.map((a) => ({
      status: a.status,
      provider_name: a.provider,
      model_permaslug: a.model,
    })),
    content_filter_flags: g.flags,
    refusal: g.refusal ?? null,
  };
}

/** `GET /generation?id=`, API-key scope: a key sees only its own generations (else 404). */
export function generationRoute(app: App, meter: Meter): void {
  app.get('/generation', {
    schema: {
      tags,
      operationId: 'getGeneration',
      querystring: GenerationQuery,
      response: { 200: Type.Object({ data: GenerationObject }), ...errorResponses(400, 401, 403, 404, 500) },
    },
    handler: async (request) => {
      const found = await meter.getGeneration(request.query.id, request.principal.hash);
      if (found === null) throw errors.notFound('Generation not found');
      return { data: presentGeneration(found) };
    },
  });
}
