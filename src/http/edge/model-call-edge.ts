import { channel } from 'node:diagnostics_channel';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyBaseLogger } from 'fastify';
import type { KeyAuthenticator } from '../../domain/keys/authenticator.js';
import type { KeyRecord } from '../../domain/keys/types.js';
import type { Metrics } from '../../observability/metrics.js';
import { admittedApiKey } from '../plugins/auth.js';
import type { AddressThrottle } from '../plugins/auth-throttle.js';
import type { ErrorRenderer } from '../plugins/error-handler.js';
import { recordRouteAnswer } from '../plugins/http-metrics.js';
import { readJsonBody } from '../plugins/json-body.js';
import { apiHeaders } from '../plugins/security-headers.js';
import { modelCallCompleted } from '../request-log.js';
import { EdgeReply, EdgeRequest } from './edge-exchange.js';
import type { LeanRoute, LeanRoutes } from './lean-routes.js';

type Listener = (req: IncomingMessage, res: ServerResponse) => void;

/**
 * Published (with the request) as a lean route's handler starts, the lean edge's counterpart of
 * Fastify's `tracing:fastify.request.handler:start`; for measurement (bench/gateway-bench/step-stamps.ts).
 */
export const LEAN_HANDLER_CHANNEL = 'switchyard:lean-edge:handler';
const handlerStart = channel(LEAN_HANDLER_CHANNEL);

export interface ModelCallEdgeOptions {
  routes: LeanRoutes;
  authenticator: KeyAuthenticator;
  /** The failed-authentication throttle: while it holds any address, every request goes to Fastify. */
  throttle: AddressThrottle;
  bodyLimit: number;
  genReqId: () => string;
  /** The app's logger (each request's logger is its child, made on first use). */
  log: FastifyBaseLogger;
  /** The app's error renderer (`installErrorHandling`). */
  renderError: ErrorRenderer;
  metrics: Metrics;
  /** True once the app is closing: Fastify then answers 503 (`return503OnClosing`). */
  closing: () => boolean;
}

/** The `application/json` spellings the lean edge reads; any other type goes to Fastify's parsers. */
const JSON_TYPES = new Set(['application/json', 'application/json; charset=utf-8', 'application/json;charset=utf-8']);
const DIGITS = /^[0-9]{1,15}$/;

/**
 * Whether the request's body is one the lean edge reads exactly as Fastify would: a JSON type,
 * a `Content-Length` within the body limit and above zero, no transfer coding. Every other body
 * (empty, chunked, oversized, another type, a bad length) goes to Fastify, which answers it as
 * before (400, 413, 415 or a parse).
 */
function plainJsonBody(req: IncomingMessage, bodyLimit: number): boolean {
  const { headers } = req;
  const type = headers['content-type'];
  const length = headers['content-length'];
  if (type === undefined || length === undefined || headers['transfer-encoding'] !== undefined) return false;
  if (!JSON_TYPES.has(type) && !JSON_TYPES.has(type.toLowerCase())) return false;
  if (!DIGITS.test(length)) return false;
  const bytes = Number(length);
  return bytes > 0 && bytes <= bodyLimit;
}

/**
 * The server's `'request'` listener: a model call (`POST` to a lean route, with a plain JSON body
 * and an admitted API key) is served here, without Fastify's request pipeline; every other
 * request, and every model call refused at authentication, goes to `fastify` untouched (nothing
 * of it has been read), so Fastify answers it exactly as before. A served call runs the pieces
 * the Fastify route runs, called directly: the request id, the authenticator, the body limit, the
 * JSON parser, the route's validator and handler, the error renderer with the route's `onError`
 * work, the route's metrics and the call's log line.
 */
export function modelCallEdge(options: ModelCallEdgeOptions, fastify: Listener): Listener {
  const { routes, authenticator, throttle, bodyLimit, closing } = options;
  return (req, res) => {
    const startedAt = performance.now();
    const route = req.method === 'POST' && req.url !== undefined ? routes.match(req.url) : undefined;
    // A throttled address needs the client's address (`trustProxy`) and the refusal delay: Fastify's.
    if (route === undefined || closing() || throttle.size() !== 0 || !plainJsonBody(req, bodyLimit)) {
      fastify(req, res);
      return;
    }
    const key = admittedApiKey(req.headers, authenticator);
    if (key instanceof Promise)
      key.then(
        (admitted) =>
          admitted === null ? fastify(req, res) : serve(options, { route, req, res, key: admitted, startedAt }),
        () => fastify(req, res),
      );
    else if (key === null) fastify(req, res);
    else serve(options, { route, req, res, key, startedAt });
  };
}

interface Exchange {
  route: LeanRoute;
  req: IncomingMessage;
  res: ServerResponse;
  key: KeyRecord;
  startedAt: number;
}

function serve(options: ModelCallEdgeOptions, { route, req, res, key, startedAt }: Exchange): void {
  const request = new EdgeRequest(req, options.genReqId(), route, key, options.log);
  const reply = new EdgeReply(res, request, startedAt);
  const fail = (error: Error): void => failed(options, request, reply, error);
  // The route's `onResponse` work and the request's log line, when the answer ends (as Fastify's).
  const ended = (error?: Error): void => {
    res.removeListener('finish', ended);
    res.removeListener('error', ended);
    reply.markEnded();
    recordRouteAnswer(options.metrics, route.url, request.method, reply);
    modelCallCompleted(error, request, reply);
  };
  res.on('finish', ended);
  res.on('error', ended);
  readBody(req, (error, text) => {
    if (error !== null) {
      fail(error);
      return;
    }
    let valid: ReturnType<LeanRoute['validate']>;
    try {
      request.body = readJsonBody(text);
      valid = route.validate(request.body);
    } catch (refused) {
      fail(refused as Error);
      return;
    }
    if (valid !== true) {
      fail(valid.error);
      return;
    }
    if (handlerStart.hasSubscribers) handlerStart.publish(request);
    let answered: Promise<unknown>;
    try {
      answered = route.handler(request, reply);
    } catch (thrown) {
      fail(thrown as Error);
      return;
    }
    answered.then(undefined, (rejected: unknown) => {
      // As Fastify's promise handling: an error after the answer began is logged, not sent.
      if (reply.sent) reply.log.error({ err: rejected }, 'Promise errored, but reply.sent = true was set');
      else fail(rejected as Error);
    });
  });
}

/**
 * An error answer as Fastify's route gives it: the route's `onError` work (the API headers of a
 * sink route; the failed-authentication count applies to 401s only, and no 401 reaches this edge:
 * a refused credential went to Fastify), then the app's error renderer.
 */
function failed(options: ModelCallEdgeOptions, request: EdgeRequest, reply: EdgeReply, error: Error): void {
  if (reply.sent) {
    reply.send(error);
    return;
  }
  apiHeaders(reply);
  reply.clearBodyHeaders();
  options.renderError(error, request, reply);
}

/**
 * Reads the body as Fastify's `parseAs: 'string'` does: raw Buffers decoded once at the end. The
 * length is `Content-Length` framed by node's parser, within the body limit (`plainJsonBody`),
 * so neither the limit nor the length can be broken here; a client gone mid-body is a 400.
 */
function readBody(req: IncomingMessage, done: (error: Error | null, text: string) => void): void {
  const chunks: Buffer[] = [];
  let received = 0;
  const onData = (chunk: Buffer): void => {
    received += chunk.length;
    chunks.push(chunk);
  };
  const onEnd = (error?: Error & { statusCode?: number }): void => {
    req.removeListener('data', onData);
    req.removeListener('end', onEnd);
    req.removeListener('error', onEnd);
    if (error !== undefined) {
      if (!(typeof error.statusCode === 'number' && error.statusCode >= 400)) error.statusCode = 400;
      done(error, '');
      return;
    }
    const only = chunks.length === 1 ? chunks[0] : undefined;
    done(null, (only ?? Buffer.concat(chunks, received)).toString('utf8'));
  };
  req.on('data', onData);
  req.on('end', onEnd);
  req.on('error', onEnd);
  req.resume();
}
