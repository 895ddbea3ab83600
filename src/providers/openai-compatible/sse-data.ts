import { fromHttpStatus, protocolError, SseParser, type SseEvent, type UpstreamResponse } from '../../upstream/index.js';
import { isRecord, type JsonRecord } from '../json.js';

export interface StreamIdentity {
  providerId: string;
  apiKey: string | null;
}

/**
 * The `data:` payloads of an OpenAI-style SSE stream as JSON objects, up to `[DONE]`. At `[DONE]`
 * the stream ends for the caller at once; the rest of the body (normally just its end) is drained
 * in the background, under the idle timer, so the socket still goes back to the pool — the
 * client's last chunk no longer waits for the upstream to close. An `{error:{…}}` payload
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
  const chunks = res.chunks()[Symbol.asyncIterator]();
  let handedOff = false;
  try {
    for (;;) {
      const step = await chunks.next();
      if (step.done === true) {
        handedOff = true;
        break;
      }
      for (const event of parser.push(step.value)) {
        const record = payload(event);
        if (record !== null) yield record;
      }
      if (done) {
        handedOff = true;
        void drainRest(chunks);
        return true;
      }
    }
    for (const event of parser.end()) {
      const record = payload(event);
      if (record !== null) yield record;
    }
  } catch (err) {
    if (!done) throw err;
  } finally {
    // The caller stopped early (or a chunk failed): close the body, as a for-await would.
    if (!handedOff) await chunks.return?.();
  }
  return done;
}

/** Reads what follows `[DONE]` to the end; a failure there (e.g. the upstream never closed) loses nothing. */
async function drainRest(chunks: AsyncIterator<Buffer>): Promise<void> {
  try {
    for (;;) if ((await chunks.next()).done === true) return;
  } catch {
    // idle timeout or reset after the answer was complete
  }
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
