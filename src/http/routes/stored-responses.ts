import { Type } from '@sinclair/typebox';
import type { KeyRecord } from '../../domain/keys/types.js';
import type { CallReply, CallRequest } from '../call-exchange.js';
import type { ResponseStore } from '../../domain/responses/response-store.js';
import type { ResponseScope } from '../../domain/responses/types.js';
import { errors } from '../../errors/index.js';
import type { CallPolicyResolver } from '../../gateway/call-policy.js';
import { responsesCodec, type ResponsesCodecOptions } from '../../wire/openai-responses/codec.js';
import type { ResponsesRequestBody } from '../../wire/openai-responses/schema.js';
import { errorResponses } from '../schemas/common.js';
import { serveModelCall, type ModelCallOptions } from '../serve-model-call.js';
import type { App } from '../types.js';

/**
 * Stored Responses at the edge: `store` (default true, as OpenAI's) keeps a response's input
 * and output items; `previous_response_id` and `item_reference` read them back before the call
 * is decoded; `GET` and `DELETE /responses/{id}` serve the key that made one. A key under a
 * guardrail that enforces zero data retention never has a response kept: `store: true` is
 * treated as false and the response's metadata says so.
 */
export interface StoredResponsesDeps {
  store: ResponseStore;
  policy: CallPolicyResolver;
}

/** The metadata entry a response carries when it asked to be stored and was not. */
export const STORE_NOTE = 'switchyard_store';

const scopeOf = (key: KeyRecord): ResponseScope => ({ workspaceId: key.workspaceId, keyHash: key.hash });

function inputItems(input: unknown): unknown[] {
  if (typeof input === 'string') return [{ role: 'user', content: input }];
  return Array.isArray(input) ? input : [];
}

/** `POST /responses`: resolves stored state, decides whether to keep the answer, then runs the call. */
export async function serveResponses<Reply extends CallReply>(
  options: ModelCallOptions,
  deps: StoredResponsesDeps | undefined,
  request: CallRequest & { body: ResponsesRequestBody },
  reply: Reply,
): Promise<Reply> {
  if (deps === undefined) return serveModelCall(responsesCodec(), options, request, reply);
  const key = request.principal;
  const scope = scopeOf(key);
  const body = request.body as Record<string, unknown> & ResponsesRequestBody;
  const resolved = await deps.store.resolveInput(body, scope);
  const input = resolved ?? inputItems(body.input);
  if (resolved !== null)
    request.body = { ...body, input: resolved as ResponsesRequestBody['input'], previous_response_id: null };
  const wanted = body.store !== false;
  const zdr = wanted && (await deps.policy.resolve(key)).routing.zdrGroups.size > 0;
  const codec: ResponsesCodecOptions = {};
  if (wanted && !zdr) {
    codec.store = true;
    codec.onResponse = (response) =>
      deps.store.save({
        id: response.id,
        ...scope,
        inputItems: input,
        outputItems: response.output,
        response: response as unknown as Record<string, unknown>,
      });
  } else if (zdr) codec.note = { [STORE_NOTE]: 'off: a guardrail enforces zero data retention' };
  return serveModelCall(responsesCodec(codec), options, request, reply);
}

const IdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 200 }) });

/** `GET /responses/{id}`, `GET /responses/{id}/input_items`, `DELETE /responses/{id}`: the key's own only. */
export function storedResponseRoutes(app: App, deps: StoredResponsesDeps): void {
  const tags = ['Model calls'];
  const responses = errorResponses(400, 401, 403, 404, 500);
  app.get('/responses/:id', {
    schema: { tags, operationId: 'getResponse', params: IdParams, response: responses },
    handler: async (request) => {
      const found = await deps.store.find(request.params.id, scopeOf(request.principal));
      if (found === null) throw errors.notFound(`Response with id '${request.params.id}' not found.`);
      return found.response;
    },
  });
  app.get('/responses/:id/input_items', {
    schema: { tags, operationId: 'listResponseInputItems', params: IdParams, response: responses },
    handler: async (request) => {
      const found = await deps.store.find(request.params.id, scopeOf(request.principal));
      if (found === null) throw errors.notFound(`Response with id '${request.params.id}' not found.`);
      const ids = found.inputItems.map((i) =>
        typeof i === 'object' && i !== null ? (i as { id?: unknown }).id : null,
      );
      const first = ids.find((i) => typeof i === 'string') ?? null;
      const last = ids.findLast((i) => typeof i === 'string') ?? null;
      return { object: 'list', data: found.inputItems, first_id: first, last_id: last, has_more: false };
    },
  });
  app.delete('/responses/:id', {
    schema: { tags, operationId: 'deleteResponse', params: IdParams, response: responses },
    handler: async (request) => {
      const deleted = await deps.store.remove(request.params.id, scopeOf(request.principal));
      if (!deleted) throw errors.notFound(`Response with id '${request.params.id}' not found.`);
      return { id: request.params.id, object: 'response', deleted: true };
    },
  });
}
