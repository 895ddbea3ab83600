import type { AcceptedCall } from '../../gateway/call.js';
import { API_HEADERS } from '../plugins/security-headers.js';
import { GENERATION_ID_HEADER } from '../request-log.js';

/** Names of the `flag` content filters that matched the request, comma-separated (absent when none). */
export const CONTENT_FLAGS_HEADER = 'x-switchyard-content-flags';

/** Headers every answer of an accepted call carries, JSON and SSE alike. */
export function callHeaders(call: AcceptedCall): Record<string, string> {
  const headers: Record<string, string> = { 'x-request-id': call.requestId, [GENERATION_ID_HEADER]: call.generationId };
  if (call.flags.length > 0) headers[CONTENT_FLAGS_HEADER] = call.flags.join(',');
  return headers;
}

/**
 * The headers of a JSON answer of an accepted call: the call's, then the API's (`API_HEADERS`),
 * set here because a route answered by a sink runs no `onSend` hook.
 */
export function jsonCallHeaders(call: AcceptedCall): Record<string, string> {
  return Object.assign(callHeaders(call), API_HEADERS);
}
