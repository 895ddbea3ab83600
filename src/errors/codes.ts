import { GatewayError, type ErrorMetadata } from './gateway-error.js';

/**
 * Registry of error codes. Each factory fixes status, code and default message so that the same
 * condition always renders the same way (Fastify's FST_ERR_* registry is the model).
 */
export const errors = {
  invalidRequest: (message = 'Invalid request parameters', metadata?: ErrorMetadata) =>
    new GatewayError({ status: 400, code: 'invalid_request', message, metadata }),
  missingAuth: () =>
    new GatewayError({ status: 401, code: 'authentication', message: 'Missing Authentication header' }),
  invalidAuth: (message = 'Invalid credentials') => new GatewayError({ status: 401, code: 'authentication', message }),
  paymentRequired: (message: string, metadata?: ErrorMetadata) =>
    new GatewayError({ status: 402, code: 'payment_required', message, metadata }),
  managementOnly: () =>
    new GatewayError({
      status: 403,
      code: 'permission_denied',
      message: 'Only management keys can perform this operation',
    }),
  apiKeyOnly: () =>
    new GatewayError({
      status: 403,
      code: 'permission_denied',
      message: 'Management keys cannot perform model calls; use an API key',
    }),
  forbidden: (message: string, metadata?: ErrorMetadata) =>
    new GatewayError({ status: 403, code: 'permission_denied', message, metadata }),
  notFound: (message = 'Resource not found', metadata?: ErrorMetadata) =>
    new GatewayError({ status: 404, code: 'not_found', message, metadata }),
  routeNotFound: (method: string, url: string) =>
    new GatewayError({ status: 404, code: 'not_found', message: `Route ${method} ${url} not found` }),
  methodNotAllowed: (message: string) => new GatewayError({ status: 405, code: 'invalid_request', message }),
  timeout: (message = 'Operation timed out. Please try again later.') =>
    new GatewayError({ status: 408, code: 'timeout', message }),
  conflict: (message = 'Resource conflict. Please try again later.', metadata?: ErrorMetadata) =>
    new GatewayError({ status: 409, code: 'conflict', message, metadata }),
  payloadTooLarge: (limitBytes: number) =>
    new GatewayError({
      status: 413,
      code: 'payload_too_large',
      message: 'Request payload too large',
      metadata: { limit_bytes: limitBytes },
    }),
  uriTooLong: (message: string) => new GatewayError({ status: 414, code: 'invalid_request', message }),
  unsupportedMediaType: (contentType: string) =>
    new GatewayError({
      status: 415,
      code: 'invalid_request',
      message: `Unsupported Content-Type: ${contentType}; send application/json`,
    }),
  rateLimited: (
    message = 'Rate limit exceeded',
    retryAfterSeconds?: number,
    extra?: { metadata?: ErrorMetadata; headers?: Record<string, string> },
  ) =>
    new GatewayError({
      status: 429,
      code: 'rate_limit_exceeded',
      message,
      metadata: extra?.metadata,
      headers: {
        ...(retryAfterSeconds === undefined ? {} : { 'retry-after': String(retryAfterSeconds) }),
        ...extra?.headers,
      },
    }),
  internal: (cause?: unknown) =>
    new GatewayError({ status: 500, code: 'server', message: 'Internal Server Error', cause }),
  badGateway: (message = 'Provider returned error', metadata?: ErrorMetadata) =>
    new GatewayError({ status: 502, code: 'provider_unavailable', message, metadata }),
  serviceUnavailable: (message = 'Service temporarily unavailable', metadata?: ErrorMetadata) =>
    new GatewayError({ status: 503, code: 'provider_overloaded', message, metadata }),
  /** Our own database cannot answer (not a provider problem): retry shortly. */
  storeUnavailable: (message: string) =>
    new GatewayError({
      status: 503,
      code: 'store_unavailable',
      message,
      metadata: { retryable: true },
      headers: { 'retry-after': '1' },
    }),
} as const;
