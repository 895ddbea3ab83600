import { LogController, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import type { CallReply, CallRequest } from './call-exchange.js';
import { lazyChildLogger } from './lazy-request-logger.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** True on the model-call routes (a decorator of their scope); absent on every other route. */
    modelCall?: boolean;
  }
}

/**
 * Header naming the generation of a model call the gateway accepted: every reply of an accepted
 * call carries it, and such a call is logged by its call-log line (written when it is settled).
 */
export const GENERATION_ID_HEADER = 'x-generation-id';

/** Message of the one line logged for a model call refused before it reached the gateway. */
export const REFUSED_CALL_MSG = 'model call refused';

/**
 * Marks `scope` as the model-call routes: their requests are logged by the call-log line alone
 * (see `RequestLogController`). Primitive decorators are own fields set by the scope's request
 * constructor, so the check costs one property read. Their request loggers are made on first
 * use (`lazyChildLogger`): an accepted call writes nothing through its request's logger.
 */
export function markModelCallScope(scope: FastifyInstance): void {
  scope.decorateRequest('modelCall', true);
  scope.setChildLoggerFactory(lazyChildLogger);
}

/** The path of a request URL, without its query string. */
function pathOf(url: string): string {
  const q = url.indexOf('?');
  return q === -1 ? url : url.slice(0, q);
}

/**
 * Fastify's per-request log lines, except on model calls. A model call logs exactly one line:
 * the call-log line ("model call", written when the gateway settles it), or, for a call refused
 * before that (authentication, validation, guardrail, budget…), one compact line with the
 * method, path, status and response time (the request id is bound by the request's logger).
 * Never bodies, headers or query strings. Management and other routes keep "incoming request"
 * and "request completed". On a model call Fastify's two lines cost a measurable share of the
 * call and its garbage (docs/performance.md), and repeated what the call line records.
 */
export class RequestLogController extends LogController {
  override incomingRequest(request: FastifyRequest, reply: FastifyReply): void {
    if (request.modelCall === true) return;
    super.incomingRequest(request, reply);
  }

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    if (request.modelCall !== true) super.requestCompleted(error, request, reply);
    else modelCallCompleted(error, request, reply);
  }
}

/**
 * The end of a model call's answer as logged: nothing for an accepted call (its call-log line is
 * written when it settles), else the one "model call refused" line. Both edges call it.
 */
export function modelCallCompleted(error: Error | null | undefined, request: CallRequest, reply: CallReply): void {
  if (reply.hasHeader(GENERATION_ID_HEADER)) return;
  const line = {
    method: request.method,
    path: pathOf(request.url),
    status: reply.statusCode,
    responseTime: reply.elapsedTime,
  };
  if (error) request.log.error({ ...line, err: error }, REFUSED_CALL_MSG);
  else request.log.info(line, REFUSED_CALL_MSG);
}
