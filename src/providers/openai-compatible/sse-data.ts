import { fromHttpStatus, protocolError, SseParser, type SseEvent, type UpstreamResponse } from '../../upstream/index.js';
import { isRecord, type JsonRecord } from '../json.js';

export interface StreamIdentity {
  providerId: string;
  apiKey: string | null;
}

/**
 * The `data:` payloads of an OpenAI-style SSE stream as JSON objects, up to `[DONE]`. After
 * `[DONE]` the body is drained (so the socket goes back to the pool). An `{error:{…}}` payload
 * (OpenRouter / OpenAI mid-stream error) throws an UpstreamError of kind `stream`.
 * Returns whether `[DONE]` was seen.
 */
export async function* openAiSseData(res: UpstreamResponse, who: StreamIdentity): AsyncGenerator<JsonRecord, boolean, undefined> {
  // The parser runs inline on each body chunk (no generator of its own: one hop less per event).
  const parser = new SseParser();
  let done = false;
  const payload = (event: SseEvent): JsonRecord | null => {
    if (done) return null;
    const data = event.data.trim();
    if (data === '[DONE]') {
      done = true;
      return null;
    }
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
  };
  try {
    for await (const bytes of res.chunks()) {
      for (const event of parser.push(bytes)) {
        const record = payload(event);
        if (record !== null) yield record;
      }
    }
    for (const event of parser.end()) {
      const record = payload(event);
      if (record !== null) yield record;
    }
  } catch (err) {
    if (!done) throw err;
    // A failure after [DONE] (e.g. the upstream never closed) loses nothing.
  }
  return done;
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
  return fromHttpStatus({ kind: 'stream', providerId: who.providerId, apiKey: who.apiKey, upstreamStatus: code, upstreamMessage: message, providerCode });
}
