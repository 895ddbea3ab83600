import type { UpstreamResponse } from './response.js';
import { UpstreamSseParser } from './framing/sse-body.js';
import { UpstreamAwsEventParser } from './framing/aws-eventstream.js';

const PACED = { progress: () => undefined, abortWith: () => undefined };
const MAX_FRAME_BYTES = 1 << 20;

/** What happened to a fixture body: read to its end, or closed before it. */
export interface BodyState {
  drained: boolean;
  closed: boolean;
}

/**
 * An upstream response for unit tests of stream readers (SSE text or event-stream bytes): its body
 * sends `parts`, then stays open until `release` resolves; `state` tells whether it was read to
 * the end or closed first.
 */
export function heldBody(
  parts: (string | Uint8Array)[],
  release: Promise<void> = Promise.resolve(),
  state: BodyState = { drained: false, closed: false },
): UpstreamResponse {
  async function* chunks(): AsyncGenerator<Buffer, void, undefined> {
    try {
      for (const p of parts)
        yield typeof p === 'string' ? Buffer.from(p) : Buffer.from(p.buffer, p.byteOffset, p.byteLength);
      await release;
      state.drained = true;
    } finally {
      if (!state.drained) state.closed = true;
    }
  }
  return {
    status: 200,
    headers: {},
    chunks,
    sseParser: () => new UpstreamSseParser(PACED, 'p', MAX_FRAME_BYTES),
    awsEventParser: () => new UpstreamAwsEventParser(PACED, 'p', MAX_FRAME_BYTES),
    text: () => Promise.reject(new Error('unused')),
    json: () => Promise.reject(new Error('unused')),
    discard: () => undefined,
  };
}
