import { ChatRequestSchema, CompletionRequestSchema, MessagesRequestSchema } from '../../canonical/index.js';
import { markModelCallScope } from '../request-log.js';
import { chatCompletionsCodec } from '../../wire/openai-chat/inbound.js';
import { completionsCodec } from '../../wire/openai-completions/inbound.js';
import { messagesCodec } from '../../wire/anthropic-messages/inbound/codec.js';
import { errorResponses } from '../schemas/common.js';
import { serveModelCall, type ModelCallOptions } from '../serve-model-call.js';
import { sinkRoute } from './sink-route.js';
import { openAiSurfaceRoutes } from './openai-surfaces.js';
import type { App } from '../types.js';

export type { ModelCallOptions } from '../serve-model-call.js';
export { CONTENT_FLAGS_HEADER } from '../sinks/call-headers.js';

/** POST /chat/completions, POST /completions and POST /messages (API keys only), JSON and SSE. */
export function modelCallRoutes(parent: App, options: ModelCallOptions): void {
  void parent.register(async (app: App) => modelCallScope(app, options));
}

function modelCallScope(app: App, options: ModelCallOptions): void {
  markModelCallScope(app);
  const responses = errorResponses(400, 401, 402, 403, 404, 408, 413, 429, 500, 502, 503);
  const lean = options.leanRoutes;
  sinkRoute(app, lean, {
    url: '/chat/completions',
    schema: {
      tags: ['Model calls'],
      operationId: 'sendChatCompletionRequest',
      body: ChatRequestSchema,
      response: responses,
    },
    serve: (request, reply) => serveModelCall(chatCompletionsCodec, options, request, reply),
  });
  sinkRoute(app, lean, {
    url: '/completions',
    schema: {
      tags: ['Model calls'],
      operationId: 'createCompletions',
      body: CompletionRequestSchema,
      response: responses,
    },
    serve: (request, reply) => serveModelCall(completionsCodec, options, request, reply),
  });
  sinkRoute(app, lean, {
    url: '/messages',
    // Anthropic's SDKs parse Anthropic's error body: the error handler renders that shape here.
    errorShape: 'anthropic',
    schema: {
      tags: ['Model calls'],
      operationId: 'createMessage',
      body: MessagesRequestSchema,
    },
    serve: (request, reply) => serveModelCall(messagesCodec(), options, request, reply),
  });
  openAiSurfaceRoutes(app, options);
}
