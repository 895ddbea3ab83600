import type { GatewayError } from './gateway-error.js';

/** The Anthropic error types a client's SDK maps to its exception classes. */
export type AnthropicErrorType =
  | 'invalid_request_error'
  | 'authentication_error'
  | 'permission_error'
  | 'not_found_error'
  | 'request_too_large'
  | 'rate_limit_error'
  | 'billing_error'
  | 'api_error'
  | 'overloaded_error';

/** Anthropic's error body: `{"type":"error","error":{"type":…,"message":…}}`. */
export interface AnthropicErrorEnvelope {
  type: 'error';
  error: { type: AnthropicErrorType; message: string };
}

const BY_STATUS: Readonly<Record<number, AnthropicErrorType>> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  402: 'billing_error',
  403: 'permission_error',
  404: 'not_found_error',
  413: 'request_too_large',
  429: 'rate_limit_error',
  503: 'overloaded_error',
  529: 'overloaded_error',
};

/** The type for a status: the table above, else any other 4xx is a bad request and any 5xx an API error. */
export function anthropicErrorType(status: number): AnthropicErrorType {
  return BY_STATUS[status] ?? (status < 500 ? 'invalid_request_error' : 'api_error');
}

/** The same error, status and message as Switchyard's envelope, in Anthropic's shape. */
export function renderAnthropicError(error: GatewayError): AnthropicErrorEnvelope {
  return { type: 'error', error: { type: anthropicErrorType(error.status), message: error.message } };
}
