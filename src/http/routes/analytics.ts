import type { GenerationRecord } from '../../domain/accounting/types.js';
import { openRouterApiType } from '../../domain/accounting/api-surface.js';
import { statusOf, type GenerationFilter } from '../../domain/analytics/types.js';
import type { KeyRecord } from '../../domain/keys/types.js';
import { errors } from '../../errors/index.js';
import type { Services } from '../../services.js';
import {
  ActivityList,
  ActivityQuery,
  GenerationIdParams,
  GenerationListQuery,
  GenerationPageObject,
  type GenerationRowObject,
} from '../schemas/analytics.js';
import { errorResponses } from '../schemas/common.js';
import type { App } from '../types.js';
import { GenerationObject, presentGeneration } from './generation.js';
import { Type, type Static } from '@sinclair/typebox';
import { Nullable } from '../../canonical/schema-helpers.js';

const tags = ['Analytics'];

/** An API key reads only its own rows: another key's hash is a 403, no hash means its own. */
function ownKeyHash(principal: KeyRecord, requested: string | undefined): string | undefined {
  if (principal.kind === 'management') return requested;
  if (requested !== undefined && requested !== principal.hash)
    throw errors.forbidden('An API key can read only its own activity', { field: 'key_hash' });
  return principal.hash;
}

function presentRow(g: GenerationRecord, keyName: string | null): Static<typeof GenerationRowObject> {
  return {
    id: g.id,
    created_at: g.createdAt,
    key_hash: g.keyHash,
    key_name: keyName,
    workspace_id: g.workspaceId,
    model: g.model,
    provider_name: g.providerId,
    endpoint_id: g.providerId === '' ? '' : `${g.providerId}:${g.upstreamModel}`,
    status: statusOf(g),
    api_type: openRouterApiType(g.apiType),
    api_surface: g.apiType,
    finish_reason: g.finishReason,
    streamed: g.streamed,
    prompt_tokens: g.promptTokens,
    completion_tokens: g.completionTokens,
    reasoning_tokens: g.reasoningTokens,
    cost_usd: g.costUsd,
    latency_ms: g.generationTimeMs,
    first_token_ms: g.latencyMs > 0 ? g.latencyMs : null,
    fallbacks: Math.max(0, g.attempts.length - 1),
    attempts: g.attempts.map((a) => ({ provider: a.provider, model: a.model, status: a.status })),
    flags: g.flags,
    user_agent: g.userAgent ?? null,
    session_id: g.sessionId ?? null,
    origin: g.origin ?? null,
    refusal: g.refusal ?? null,
  };
}

/** `/activity` and `/generations`: any key (an API key sees its own) or a console session. */
export function analyticsReadRoutes(app: App, services: Services): void {
  const analytics = services.analytics;

  app.get('/activity', {
    schema: {
      tags,
      operationId: 'getActivity',
      summary: 'Usage per UTC day × model × provider endpoint, last 30 completed days',
      querystring: ActivityQuery,
      response: { 200: ActivityList, ...errorResponses(400, 401, 403, 500) },
    },
    handler: async (request) => {
      const { date, workspace_id } = request.query;
      const rows = await analytics.activity({
        date,
        keyHash: ownKeyHash(request.principal, request.query.key_hash),
        workspaceId: workspace_id,
      });
      return {
        data: rows.map((r) => ({
          date: r.date,
          model: r.model,
          model_permaslug: r.model,
          endpoint_id: r.providerId === '' ? '' : `${r.providerId}:${r.upstreamModel}`,
          provider_name: r.providerId,
          usage: r.usageUsd,
          byok_usage_inference: 0,
          requests: r.requests,
          prompt_tokens: r.promptTokens,
          completion_tokens: r.completionTokens,
          reasoning_tokens: r.reasoningTokens,
        })),
      };
    },
  });

  app.get('/generations', {
    schema: {
      tags,
      operationId: 'listGenerations',
      summary: 'The generation log, newest first, cursor-paged and filtered (never prompt text)',
      querystring: GenerationListQuery,
      response: { 200: GenerationPageObject, ...errorResponses(400, 401, 403, 500) },
    },
    handler: async (request) => {
      const q = request.query;
      const filter: GenerationFilter = {
        from: q.from,
        to: q.to,
        keyHash: ownKeyHash(request.principal, q.key_hash),
        model: q.model,
        providerId: q.provider,
        status: q.status,
        refusalStatus: q.http_status,
        flagged: q.flagged,
        workspaceId: q.workspace_id,
        sessionId: q.session_id,
        userAgent: q.user_agent,
        origin: q.origin,
        apiSurface: q.api_surface,
      };
      const page = await analytics.generations(filter, q.cursor, q.limit ?? 50);
      return {
        data: page.rows.map((g) => presentRow(g, page.keyNames.get(g.keyHash) ?? null)),
        next_cursor: page.nextCursor,
      };
    },
  });

  app.get('/generations/:id', {
    schema: {
      tags,
      operationId: 'getGenerationById',
      summary: 'One generation in the shape of GET /generation (an API key: only its own)',
      params: GenerationIdParams,
      response: {
        200: Type.Object({
          data: GenerationObject,
          // Beside `data` (which keeps GET /generation's shape): the key that made the call, so a
          // reader shows its name; null once the key is deleted.
          key: Nullable(Type.Object({ hash: Type.String(), name: Type.String(), label: Type.String() })),
        }),
        ...errorResponses(401, 403, 404, 500),
      },
    },
    handler: async (request) => {
      const found = await services.store.ledger.findGeneration(request.params.id);
      const principal = request.principal;
      if (found === null || (principal.kind !== 'management' && found.keyHash !== principal.hash))
        throw errors.notFound('Generation not found');
      const key = await services.store.keys.findByHash(found.keyHash);
      return {
        data: presentGeneration(found),
        key: key === null ? null : { hash: key.hash, name: key.name, label: key.label },
      };
    },
  });
}
