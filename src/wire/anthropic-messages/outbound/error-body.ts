import { isRecord, str } from '../../../canonical/json.js';
import type { VendorError } from '../../../upstream/index.js';
import { readOpenAiError } from '../../openai-chat/outbound/error-body.js';

/** Anthropic `type` of an error object → the HTTP status Anthropic uses for it. */
const ERROR_STATUS: Record<string, number> = {
  invalid_request_error: 400,
  authentication_error: 401,
  billing_error: 402,
  permission_error: 403,
  not_found_error: 404,
  request_too_large: 413,
  rate_limit_error: 429,
  api_error: 500,
  timeout_error: 504,
  overloaded_error: 529,
};

export function anthropicErrorStatus(type: string | null): number {
  return type === null ? 502 : (ERROR_STATUS[type] ?? 502);
}

/**
 * Message and code of an Anthropic error body, `{type:'error', error:{type,message}}`; any other
 * shape (a proxy in front of the API) is read as the plain shapes are.
 */
export function readAnthropicError(body: unknown): VendorError {
  if (isRecord(body) && body.type === 'error' && isRecord(body.error)) {
    const { error } = body;
    const code = typeof error.code === 'string' || typeof error.code === 'number' ? error.code : str(error.type);
    return { message: str(error.message) ?? null, code: code ?? null };
  }
  return readOpenAiError(body);
}
