import type { UpstreamResponse } from '../response.js';
import { UpstreamSseParser } from './sse-body.js';

/** What happened to a fixture body: read to its end, or closed before it. */
export interface BodyState {
  drained: boolean;
  closed: boolean;
}

/**
 * An upstream response for unit tests of stream readers: its body sends `parts`, then stays open
 * until `release` resolves; `state` tells whether it was read to the end or closed first.
 */
export function heldBody(
  parts: string[],
  release: Promise<void> = Promise.resolve(),
  state: BodyState = { drained: false, closed: false },
): UpstreamResponse {
  async function* chunks(): AsyncGenerator<Buffer, void, undefined> {
    try {
      for (const p of parts) yield Buffer.from(p);
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
    sseParser: () => new UpstreamSseParser({ progress: () => undefined, abortWith: () => undefined }, 'p', 1024),
    text: () => Promise.reject(new Error('unused')),
    json: () => Promise.reject(new Error('unused')),
    discard: () => undefined,
  };
}
