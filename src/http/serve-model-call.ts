import type { CallKind } from '../canonical/index.js';
import type { Gateway } from '../gateway/gateway.js';
import type { CallReply, CallRequest } from './call-exchange.js';
import { callerOf } from './caller.js';
import { abortOnDisconnect } from './client-abort.js';
import type { LeanRoutes } from './edge/lean-routes.js';
import type { StoredResponsesDeps } from './routes/stored-responses.js';
import type { Codec } from '../wire/codec.js';
import { JsonSink } from './sinks/json-sink.js';
import { SseSink, type StreamTiming } from './sinks/sse-sink.js';

export interface ModelCallOptions extends StreamTiming {
  gateway: Gateway;
  /** Stored Responses (`store`, `previous_response_id`, GET/DELETE /responses/{id}); absent: stateless. */
  responses?: StoredResponsesDeps;
  /** The lean model-call edge's routes (src/http/edge): each route is added there too. */
  leanRoutes?: LeanRoutes;
}

/**
 * The config of a route answered by `serveModelCall`: its sinks set the API headers of a JSON
 * answer, so the route needs no `onSend` hook (src/http/plugins/security-headers.ts).
 */
export const SINK_ROUTE = { answeredBySink: true } as const;

/**
 * The edge of every model-call route: decode the validated body with the route's codec, run the
 * call, and answer through a JSON or SSE sink in the codec's format. A refusal before the call
 * was accepted rejects (the error handler renders it); everything after is the sink's.
 */
export async function serveModelCall<K extends CallKind, Body, Reply extends CallReply>(
  codec: Codec<K, Body>,
  options: ModelCallOptions,
  request: CallRequest & { body: Body },
  reply: Reply,
): Promise<Reply> {
  const decoded = codec.decode(request.body);
  // The decoded call's fields by name, not `...decoded`: V8 builds `{ ...a, b, c }` by copying `a`
  // and then adding each further field, growing (and reallocating) the object as it goes; a
  // literal of named fields is allocated once. `DecodedCall` has exactly these three fields.
  await options.gateway.run({
    kind: decoded.kind,
    body: decoded.body,
    native: decoded.native,
    key: request.principal,
    requestId: request.id,
    traceHeaders: request.headers,
    caller: callerOf(request.headers, request.body),
    apiType: codec.apiType,
    signal: abortOnDisconnect(reply),
    open: (call) => (call.stream ? new SseSink(reply, codec, call, options) : new JsonSink(reply, codec, call)),
  });
  return reply;
}
