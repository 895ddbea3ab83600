import { Type } from '@sinclair/typebox';
import type { Catalog } from '../../catalog/index.js';
import { planRoute, refusalToError } from '../../domain/routing/index.js';
import type { CallPolicyResolver } from '../../gateway/call-policy.js';
import { upstreamTokenCount } from '../../gateway/upstream-count.js';
import type { ProviderRegistry } from '../../providers/index.js';
import { countMessagesTokens } from '../../wire/anthropic-messages/inbound/count-tokens.js';
import { CountTokensRequestSchema } from '../../canonical/index.js';
import type { App } from '../types.js';
import { AnthropicErrorSchema } from './messages-schemas.js';

export interface CountTokensOptions {
  catalog: Catalog;
  policy: CallPolicyResolver;
  /** Asked for the upstream's own count where its kind has one (Gemini); absent: always estimated. */
  providers?: ProviderRegistry;
}

const CountTokensResponse = Type.Object({ input_tokens: Type.Integer({ minimum: 0 }) });

/**
 * POST /messages/count_tokens: the input tokens of a Messages body: the upstream's own count when
 * the first candidate's kind has a count call (Gemini, Vertex AI's Gemini models), otherwise (or
 * when that count fails) counted locally. Nothing is metered. The model must be one the key may call: an unknown model is 404 and a
 * model its guardrails exclude is 403, as for the call itself.
 */
export function countTokensRoute(app: App, options: CountTokensOptions): void {
  app.post('/messages/count_tokens', {
    config: { errorShape: 'anthropic' },
    schema: {
      tags: ['Model calls'],
      operationId: 'countMessageTokens',
      body: CountTokensRequestSchema,
      response: { 200: CountTokensResponse, '4xx': AnthropicErrorSchema, '5xx': AnthropicErrorSchema },
    },
    handler: async (request) => {
      const policy = await options.policy.resolve(request.principal);
      const plan = planRoute({ catalog: options.catalog, model: request.body.model, policy: policy.routing });
      if (!plan.ok) {
        const error = refusalToError(plan.refusal);
        if (plan.refusal.kind === 'policy' && error.metadata !== null)
          error.metadata.guardrail_ids = [...(policy.ruleSources[plan.refusal.rule] ?? [])];
        throw error;
      }
      const counted =
        options.providers === undefined
          ? null
          : await upstreamTokenCount({
              providers: options.providers,
              candidates: plan.candidates,
              body: request.body,
              requestId: request.id,
            });
      return { input_tokens: counted ?? countMessagesTokens(request.body) };
    },
  });
}
