import type { FastifyContextConfig, FastifyError, FastifyInstance } from 'fastify';
import { errors, isGatewayError, renderAnthropicError, renderError, type GatewayError } from '../../errors/index.js';
import { isStoreUnavailable } from '../../store/unavailable.js';
import { isRefusedValue } from '../../store/refused-value.js';
import type { CallReply, CallRequest } from '../call-exchange.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The error body shape of a route: Switchyard's envelope (default), or Anthropic's for the
     * Messages API routes, whose clients parse that. Status and message are the same either way.
     */
    errorShape?: 'anthropic';
  }
}

/** An error's body in the shape the request's route asks for. */
export function errorBody(request: Pick<CallRequest, 'routeOptions'>, error: GatewayError): object {
  // Errors of the router itself (no route matched) may come without a route's config.
  const options = request.routeOptions as { config?: FastifyContextConfig } | undefined;
  return options?.config?.errorShape === 'anthropic' ? renderAnthropicError(error) : renderError(error);
}

/** Maps Fastify's own client errors (bad JSON, size, media type) to the registry. */
function fromFastify(error: FastifyError, bodyLimit: number): GatewayError {
  switch (error.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return errors.payloadTooLarge(bodyLimit);
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return errors.unsupportedMediaType('this Content-Type');
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return errors.invalidRequest('Request body is empty; send a JSON object');
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return errors.invalidRequest('Content-Length does not match the body');
    case 'FST_ERR_BAD_URL':
      return errors.invalidRequest('The URL path is not valid (malformed percent-encoding)');
    case 'FST_ERR_MAX_PARAM_LENGTH':
      return errors.uriTooLong('A path parameter of the URL is too long');
    default:
      break;
  }
  if (error instanceof SyntaxError || error.code === 'FST_ERR_CTP_INVALID_JSON_BODY') {
    return errors.invalidRequest('Malformed JSON in request body');
  }
  const status = error.statusCode ?? 500;
  if (status >= 400 && status < 500) return errors.invalidRequest(error.message);
  // The database away (restart, failover): retry later, not a server bug (docs/deploy.md).
  if (isStoreUnavailable(error))
    return errors.storeUnavailable('The database is temporarily unreachable; retry shortly');
  if (isRefusedValue(error)) return errors.invalidRequest('A value in the request cannot be stored');
  return errors.internal(error);
}

/**
 * Renders an error as the response. Both edges call the same one: Fastify's error handler and the
 * lean model-call edge (src/http/edge), after the route's `onError` work.
 */
export type ErrorRenderer = (raw: FastifyError | GatewayError | Error, request: CallRequest, reply: CallReply) => void;

/** Told of every error answered on a model-call route (a refused call is recorded from it). */
export type ModelCallErrorHook = (request: CallRequest, reply: CallReply, error: GatewayError) => void;

/** Renders any error as the envelope: the one place errors become responses. */
function errorRenderer(bodyLimit: number, onModelCallError?: ModelCallErrorHook): ErrorRenderer {
  return (raw, request, reply) => {
    let error: GatewayError;
    if (isGatewayError(raw)) error = raw;
    else if ('validation' in raw && Array.isArray(raw.validation)) error = errors.invalidRequest(raw.message);
    else error = fromFastify(raw as FastifyError, bodyLimit);
    if (error.status >= 500) {
      // The cause is logged for operators (without request bodies); the client sees a masked message.
      request.log.error({ err: error.cause ?? raw, code: error.code }, 'request failed');
    }
    if (request.modelCall === true) onModelCallError?.(request, reply, error);
    void reply.code(error.status).headers(error.headers).send(errorBody(request, error));
  };
}

/**
 * Fastify's `frameworkErrors` option: errors its router raises before any route matched (a
 * malformed percent-encoding, an over-long path parameter) are rendered like every other error.
 */
export function frameworkErrors(bodyLimit: number): ErrorRenderer {
  return errorRenderer(bodyLimit);
}

/**
 * The error renderer as the app's error handler, and the envelope's 404 for unmatched routes.
 * Returns the renderer, for the lean model-call edge to render its errors with the same one.
 */
export function installErrorHandling(
  app: FastifyInstance,
  bodyLimit: number,
  onModelCallError?: ModelCallErrorHook,
): ErrorRenderer {
  const render = errorRenderer(bodyLimit, onModelCallError);
  app.setErrorHandler(render);

  app.setNotFoundHandler((request, reply) => {
    const error = errors.routeNotFound(request.method, request.url.split('?')[0] ?? '');
    void reply.code(404).send(renderError(error));
  });
  return render;
}
