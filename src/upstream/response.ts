import type { UpstreamSseParser } from './framing/sse-body.js';
import type { UpstreamAwsEventParser } from './framing/aws-eventstream.js';

export type UpstreamHeaders = Record<string, string | string[] | undefined>;

/** An upstream answer once its headers came: status, headers and single-use ways to read the body. */
export interface UpstreamResponse {
  status: number;
  headers: UpstreamHeaders;
  /** The body as chunks under the first-byte / idle timers and the abort signal. Single use. */
  chunks(): AsyncIterable<Buffer>;
  /**
   * The parser for this body's SSE events, bounded by the client's event limit; from now on the
   * idle timeout counts between events instead of chunks. Read the bytes with `chunks()`.
   */
  sseParser(): UpstreamSseParser;
  /** The same for a body of AWS event-stream messages (Bedrock's streams), paced by messages. */
  awsEventParser(): UpstreamAwsEventParser;
  /**
   * Whole body as text, at most `maxBytes` (default: client limit) or a protocol error; it must be
   * complete by the first-byte deadline or within the idle timeout of this call, whichever is later.
   */
  text(maxBytes?: number): Promise<string>;
  /** Whole body parsed as JSON (protocol error when it is not JSON). */
  json(): Promise<unknown>;
  /** Drops the body and frees the socket. Safe to call more than once. */
  discard(): void;
}
