import { EmbeddingsRequestSchema } from '../../canonical/index.js';
import { embeddingsCodec } from '../../wire/openai-embeddings/inbound.js';
import { ResponsesRequestSchema } from '../../wire/openai-responses/schema.js';
import { errorResponses } from '../schemas/common.js';
import { serveModelCall, type ModelCallOptions } from '../serve-model-call.js';
import { sinkRoute } from './sink-route.js';
import type { App } from '../types.js';
import { serveResponses, storedResponseRoutes } from './stored-responses.js';

/**
 * `POST /responses` (the OpenAI Responses API, decoded to a chat; stored responses in
 * stored-responses.ts) and
 * `POST /embeddings`: registered in the model-call scope, so auth, the call log and every
 * guardrail are the chat path's. Each request gets its own codec (it keeps per-call state).
 */
export function openAiSurfaceRoutes(app: App, options: ModelCallOptions): void {
  const responses = errorResponses(400, 401, 402, 403, 404, 408, 413, 429, 500, 502, 503);
  sinkRoute(app, options.leanRoutes, {
    url: '/responses',
    schema: {
      tags: ['Model calls'],
      operationId: 'createResponses',
      body: ResponsesRequestSchema,
      response: responses,
    },
    serve: (request, reply) => serveResponses(options, options.responses, request, reply),
  });
  if (options.responses !== undefined) storedResponseRoutes(app, options.responses);
  sinkRoute(app, options.leanRoutes, {
    url: '/embeddings',
    schema: {
      tags: ['Model calls'],
      operationId: 'createEmbeddings',
      body: EmbeddingsRequestSchema,
      response: responses,
    },
    serve: (request, reply) => serveModelCall(embeddingsCodec(), options, request, reply),
  });
}
