import { fromHttpStatus, protocolError, type SseEvent } from '../../../upstream/index.js';
import { isRecord, type JsonRecord } from '../../../canonical/json.js';

export interface StreamIdentity {
  providerId: string;
  apiKey: string | null;
}

/** What `openAiPayload` returns for the `[DONE]` terminator. */
export const DONE_EVENT: unique symbol = Symbol('[DONE]');

/**
 * The `data:` payload of one OpenAI-style SSE event as a JSON object; `DONE_EVENT` for `[DONE]`,
 * null for an empty or non-object payload. An `{error:{…}}` payload (OpenRouter / OpenAI
 * mid-stream error) throws an UpstreamError of kind `stream`; a payload that is not JSON a
 * protocol error.
 */
export function openAiPayload(event: SseEvent, who: StreamIdentity): JsonRecord | typeof DONE_EVENT | null {
  const data = event.data.trim();
  if (data === '[DONE]') return DONE_EVENT;
  if (data === '') return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(data) as unknown;
  } catch (err) {
    throw protocolError(who.providerId, 'Provider sent an invalid stream event', err);
  }
  if (!isRecord(parsed)) return null;
  if (parsed.error !== undefined && parsed.error !== null) throw streamError(parsed.error, who);
  return parsed;
}

function streamError(error: unknown, who: StreamIdentity): Error {
  const e = isRecord(error) ? error : {};
  const code = typeof e.code === 'number' && e.code >= 400 && e.code < 600 ? e.code : 502;
  const message = typeof e.message === 'string' ? e.message : typeof error === 'string' ? error : null;
  const meta = isRecord(e.metadata) ? e.metadata : {};
  const providerCode =
    typeof meta.provider_code === 'string' || typeof meta.provider_code === 'number'
      ? meta.provider_code
      : typeof e.type === 'string'
        ? e.type
        : null;
  return fromHttpStatus({
    kind: 'stream',
    providerId: who.providerId,
    apiKey: who.apiKey,
    upstreamStatus: code,
    upstreamMessage: message,
    providerCode,
  });
}
