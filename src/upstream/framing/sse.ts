import { SseParser, type SseEvent } from './sse-parser.js';
import type { Framing } from './types.js';

/**
 * Server-Sent Events as a `Framing`: what every upstream streams today. An event over the limit
 * throws. (An upstream response's own parser, `res.sseParser()` in sse-body.ts, which the dialects'
 * readers drive through SseItemStream, uses the same parser and also paces the idle timeout by events.)
 */
export const SSE_FRAMING: Framing<SseEvent> = {
  contentType: 'text/event-stream',
  async *decode(body, limits) {
    const parser = new SseParser({ maxEventChars: limits.maxEventBytes });
    for await (const chunk of body) yield* parser.push(chunk);
    yield* parser.end();
  },
};
