import type { AcceptedCall } from '../../gateway/call.js';
import { GENERATION_ID_HEADER } from '../request-log.js';

/** Names of the `flag` content filters that matched the request, comma-separated (absent when none). */
export const CONTENT_FLAGS_HEADER = 'x-switchyard-content-flags';

/** Headers every answer of an accepted call carries, JSON and SSE alike. */
export function callHeaders(call: AcceptedCall): Record<string, string> {
  const headers: Record<string, string> = { 'x-request-id': call.requestId, [GENERATION_ID_HEADER]: call.generationId };
  if (call.flags.length > 0) headers[CONTENT_FLAGS_HEADER] = call.flags.join(',');
  return headers;
}
