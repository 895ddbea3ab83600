import { isRecord, str, type JsonRecord } from '../../canonical/json.js';
import type { VendorError } from '../../upstream/index.js';
import { readAnthropicError } from '../anthropic-messages/outbound/error-body.js';

/** Google's canonical error codes (`error.status`) → the HTTP status they stand for. */
const STATUS_CODES: Record<string, number> = {
  INVALID_ARGUMENT: 400,
  FAILED_PRECONDITION: 400,
  OUT_OF_RANGE: 400,
  UNAUTHENTICATED: 401,
  PERMISSION_DENIED: 403,
  NOT_FOUND: 404,
  ABORTED: 409,
  ALREADY_EXISTS: 409,
  RESOURCE_EXHAUSTED: 429,
  CANCELLED: 499,
  INTERNAL: 500,
  UNKNOWN: 500,
  DATA_LOSS: 500,
  UNIMPLEMENTED: 501,
  UNAVAILABLE: 503,
  DEADLINE_EXCEEDED: 504,
};

/** `ErrorInfo` reasons that are the gateway's credential problem though Google answers 400. */
const CREDENTIAL_REASONS = new Set(['API_KEY_INVALID', 'API_KEY_SERVICE_BLOCKED', 'API_KEY_HTTP_REFERRER_BLOCKED']);

/** The `error` object of Google's envelope (`{error:{code,message,status,details}}`, or a one-element array of it). */
function googleErrorObject(body: unknown): JsonRecord | null {
  const one: unknown = Array.isArray(body) ? body[0] : body;
  if (!isRecord(one) || !isRecord(one.error) || one.type === 'error') return null;
  const error = one.error;
  return typeof error.status === 'string' || typeof error.code === 'number' ? error : null;
}

function reasonOf(error: JsonRecord): string | null {
  for (const detail of Array.isArray(error.details) ? error.details : []) {
    if (isRecord(detail) && typeof detail.reason === 'string') return detail.reason;
  }
  return null;
}

/** The HTTP status of a Google error object (by its canonical code; a refused API key is 401). */
export function googleErrorStatus(error: JsonRecord): number {
  const reason = reasonOf(error);
  if (reason !== null && CREDENTIAL_REASONS.has(reason)) return 401;
  const code = str(error.status);
  const mapped = code === undefined ? undefined : STATUS_CODES[code];
  if (mapped !== undefined) return mapped;
  return typeof error.code === 'number' ? error.code : 502;
}

/**
 * Message and code of a Google error body; Vertex AI's Claude models answer Anthropic-shaped
 * errors, read as Anthropic's are. `status` overrides the HTTP status where Google's code says
 * more (an invalid API key answered with 400 is the gateway's credential problem, not the client's).
 */
export function readGoogleError(body: unknown): VendorError {
  const error = googleErrorObject(body);
  if (error === null) return readAnthropicError(body);
  const reason = reasonOf(error);
  const out: VendorError = { message: str(error.message) ?? null, code: reason ?? str(error.status) ?? null };
  if (reason !== null && CREDENTIAL_REASONS.has(reason)) out.status = 401;
  return out;
}
