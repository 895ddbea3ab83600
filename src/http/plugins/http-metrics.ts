import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import type { CallReply } from '../call-exchange.js';
import { UNMATCHED_ROUTE, recordHttp, type Metrics } from '../../observability/metrics.js';

/** Counts one answer of the route `pattern` (both edges: this module's hook and the lean model-call edge). */
export function recordRouteAnswer(
  metrics: Metrics,
  pattern: string,
  method: string,
  reply: Pick<CallReply, 'statusCode' | 'elapsedTime'>,
): void {
  recordHttp(metrics.httpSeries(pattern, method, reply.statusCode), reply.elapsedTime / 1000);
}

type OnResponse = (request: FastifyRequest, reply: FastifyReply, done: () => void) => void;

/**
 * Records HTTP metrics for every route registered after it, and for requests that matched none.
 * The route label is the route pattern (e.g. `/api/v1/keys/:hash`), never the raw URL: each
 * route gets its own `onResponse` hook that knows its pattern (reading `request.routeOptions`
 * builds a dozen-field object per request), and one instance-wide hook counts the 404s.
 */
export function installHttpMetrics(app: FastifyInstance, metrics: Metrics): void {
  app.addHook('onRoute', (route: RouteOptions) => {
    const pattern = route.url;
    const hook: OnResponse = (request, reply, done) => {
      recordRouteAnswer(metrics, pattern, request.method, reply);
      done();
    };
    const existing = route.onResponse;
    // A new array: the GET's options are copied for its HEAD route, which gets its own hook.
    route.onResponse = existing === undefined ? [hook] : [...(Array.isArray(existing) ? existing : [existing]), hook];
  });
  app.addHook('onResponse', (request: FastifyRequest, reply: FastifyReply, done: () => void) => {
    if (request.is404)
      recordHttp(metrics.httpSeries(UNMATCHED_ROUTE, request.method, reply.statusCode), reply.elapsedTime / 1000);
    done();
  });
}
