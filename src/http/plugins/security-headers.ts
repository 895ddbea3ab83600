import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import type { CallReply } from '../call-exchange.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The route answers through a call sink (src/http/sinks), which sets the API headers of a
     * JSON answer itself (`API_HEADERS`): the route runs no `onSend` hook, and its error answers
     * get the headers from an `onError` hook instead. A streamed answer, written on the raw
     * response, never carried them.
     */
    answeredBySink?: boolean;
  }
}

/** The console's policy: nothing inline, nothing from another origin, never framed. */
export const CONSOLE_CSP =
  "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; " +
  "frame-ancestors 'none'; base-uri 'none'; form-action 'self'";

/**
 * Headers of API answers: no sniffing, no referrer, never framed, and not cached (answers carry
 * keys' usage and other private data). A route that sets its own `cache-control` keeps it.
 */
export const API_HEADERS = Object.freeze({
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
  'cache-control': 'no-store',
} as const);

type OnSend = (
  request: FastifyRequest,
  reply: FastifyReply,
  payload: unknown,
  done: (err: null, payload: unknown) => void,
) => void;

type OnError = (request: FastifyRequest, reply: FastifyReply, error: Error, done: () => void) => void;

const common = (reply: Pick<CallReply, 'header'>): void => {
  reply.header('x-content-type-options', API_HEADERS['x-content-type-options']);
  reply.header('referrer-policy', API_HEADERS['referrer-policy']);
  reply.header('x-frame-options', API_HEADERS['x-frame-options']);
};

/** Headers of every console page and asset (the scope of the console's files). */
export function installConsoleHeaders(scope: FastifyInstance): void {
  const onSend: OnSend = (_request, reply, payload, done) => {
    common(reply);
    reply.header('content-security-policy', CONSOLE_CSP);
    done(null, payload);
  };
  scope.addHook('onSend', onSend);
}

/** `API_HEADERS` on `reply`, keeping a `cache-control` the route set (both edges' error answers take it). */
export const apiHeaders = (reply: Pick<CallReply, 'header' | 'hasHeader'>): void => {
  common(reply);
  if (!reply.hasHeader('cache-control')) reply.header('cache-control', API_HEADERS['cache-control']);
};

const onApiSend: OnSend = (_request, reply, payload, done) => {
  apiHeaders(reply);
  done(null, payload);
};

const onSinkRouteError: OnError = (_request, reply, _error, done) => {
  apiHeaders(reply);
  done();
};

/** A route's own hooks of one kind with `hook` first (where a scope's hook would run). */
function withHook<H>(hook: H, own: H | H[] | undefined): H[] {
  if (own === undefined) return [hook];
  return Array.isArray(own) ? [hook, ...own] : [hook, own];
}

/**
 * `API_HEADERS` on every answer of the routes registered in `scope` and its children. Hooks are
 * added to each route rather than to the scope, so a route answered by a call sink
 * (`config.answeredBySink`) runs no `onSend` hook at all: the sink sets the headers with its own,
 * and only an error answer (before the sink, or rendered by the error handler) takes the hook path.
 * Router 404s (no route matched) carry none of them, as with a scope-level hook.
 */
export function installApiHeaders(scope: FastifyInstance): void {
  scope.addHook('onRoute', (route: RouteOptions) => {
    if (route.config?.answeredBySink === true) route.onError = withHook(onSinkRouteError, route.onError);
    else route.onSend = withHook(onApiSend, route.onSend);
  });
}
