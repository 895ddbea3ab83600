import type { CallReply, CallRequest } from './call-exchange.js';
import { callerOf } from './caller.js';
import type { RefusalRecorder } from '../domain/accounting/refusal-recorder.js';
import type { ApiType } from '../domain/accounting/types.js';
import type { KeyRecord } from '../domain/keys/types.js';
import type { GatewayError } from '../errors/index.js';
import { GENERATION_ID_HEADER } from './request-log.js';

/** The API surface of a model-call route, by its path's last segment. */
function apiTypeOf(path: string): ApiType {
  if (path.endsWith('/messages')) return 'messages';
  if (path.endsWith('/responses')) return 'responses';
  if (path.endsWith('/embeddings')) return 'embeddings';
  if (path.endsWith('/chat/completions')) return 'chat';
  return 'completions';
}

/**
 * Statuses of a refusal: the request was read and its key known, and the gateway said no (a
 * bad body, a budget, a guardrail, an unknown model, a size limit, a rate limit, no provider).
 * 401 has no key to record it under; other 5xx are the server's own failures.
 */
const isRefusal = (status: number): boolean => (status >= 400 && status < 500 && status !== 401) || status === 503;

/** The model asked for, from a parsed body (absent when the body was refused unread). */
function modelOf(body: unknown): string {
  if (typeof body !== 'object' || body === null) return '';
  const { model, models } = body as { model?: unknown; models?: unknown };
  if (typeof model === 'string') return model;
  if (Array.isArray(models) && typeof models[0] === 'string') return models[0];
  return '';
}

/**
 * The error handler's hook for model calls: a call refused before it was accepted (no generation
 * id on the reply) by an authenticated key becomes a refusal record (docs/metering.md). Never
 * throws, never reads more of the body than its model and stream flag.
 */
export function recordRefusedCall(
  recorder: RefusalRecorder,
  request: CallRequest,
  reply: CallReply,
  error: GatewayError,
): void {
  const key = request.principal as KeyRecord | null;
  if (key === null || !isRefusal(error.status) || reply.hasHeader(GENERATION_ID_HEADER)) return;
  try {
    const path = request.routeOptions.url ?? request.url.split('?')[0] ?? '';
    const body: unknown = request.body;
    const { userAgent, sessionId, origin } = callerOf(request.headers, body);
    recorder.record({
      key,
      model: modelOf(body),
      apiType: apiTypeOf(path),
      path,
      requestId: request.id,
      streamed: typeof body === 'object' && body !== null && (body as { stream?: unknown }).stream === true,
      elapsedMs: reply.elapsedTime,
      error,
      caller: { userAgent, sessionId, origin },
    });
  } catch (failure) {
    request.log.warn({ err: failure }, 'refused call not recorded');
  }
}
