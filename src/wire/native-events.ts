import { deltaChunk, type CanonicalChunk, type ChunkLabel, type NativeEvent } from '../canonical/index.js';
import { isRecord, str } from '../canonical/json.js';
import { protocolError, type SseEvent } from '../upstream/index.js';
import type { WireDialect } from './index.js';

/**
 * The two steps every native stream decoder shares: an upstream SSE event's JSON read (its type
 * from the data, else the event name), and the canonical chunk that carries it.
 */

/** The event's name, data and text; null for data that is not an object. Invalid JSON is a protocol error. */
export function readNativeEvent(sse: SseEvent, providerId: string): NativeEvent | null {
  let data: unknown;
  try {
    data = JSON.parse(sse.data) as unknown;
  } catch (err) {
    throw protocolError(providerId, 'Provider sent an invalid stream event', err);
  }
  if (!isRecord(data)) return null;
  // An event whose data came on several `data:` lines is serialised again (one line on our side).
  const text = sse.data.includes('\n') ? undefined : sse.data;
  return { event: str(data.type) ?? sse.event ?? 'message', data, text };
}

/** A chunk standing for one native event: the text it streamed as the delta (for the one usage estimate). */
export function nativeChunk(at: ChunkLabel, dialect: WireDialect, event: NativeEvent, text: string): CanonicalChunk {
  const chunk = deltaChunk(at, text === '' ? {} : { content: text });
  chunk.native = { dialect, events: [event] };
  return chunk;
}
