import type { Static, TSchema } from '@sinclair/typebox';
import type { FastifyContextConfig } from 'fastify';
import type { CallReply, CallRequest } from '../call-exchange.js';
import type { EdgeReply, EdgeRequest } from '../edge/edge-exchange.js';
import type { LeanRoutes } from '../edge/lean-routes.js';
import { SINK_ROUTE } from '../serve-model-call.js';
import type { App } from '../types.js';
import { bodyValidator } from '../validation.js';

export interface SinkRoute<S extends TSchema> {
  /** The path within the scope (its prefix is added for the lean edge). */
  url: string;
  /** The error body's shape, when it is Anthropic's (Messages). */
  errorShape?: 'anthropic';
  schema: { body: S; tags: string[]; operationId: string; response?: Record<number, unknown> };
  /** Answers the call; the same function on both edges. */
  serve<R extends CallReply>(request: CallRequest & { body: Static<S> }, reply: R): Promise<R>;
}

/**
 * Registers a model-call `POST` route answered by a call sink: with Fastify, and with the lean
 * model-call edge (`lean`, src/http/edge) under the same full path, config, body validator and
 * handler, so either edge runs the same code for it.
 */
export function sinkRoute<S extends TSchema>(app: App, lean: LeanRoutes | undefined, route: SinkRoute<S>): void {
  const config: FastifyContextConfig =
    route.errorShape === undefined ? SINK_ROUTE : { ...SINK_ROUTE, errorShape: route.errorShape };
  app.post(route.url, {
    config,
    schema: route.schema,
    handler: (request, reply) => route.serve(request as CallRequest & { body: Static<S> }, reply),
  });
  if (lean === undefined) return;
  // The lean edge calls the handler once the body passed this validator (the route's own type).
  const handler = (request: EdgeRequest, reply: EdgeReply): Promise<EdgeReply> => route.serve(request, reply);
  lean.add({ url: app.prefix + route.url, config, validate: bodyValidator(route.schema.body), handler });
}
