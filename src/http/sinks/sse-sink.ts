import type { CallKind } from '../../canonical/index.js';
import type { GatewayError } from '../../errors/index.js';
import type { AcceptedCall, CallSink, ChunkOf } from '../../gateway/call.js';
import type { Codec } from '../../wire/codec.js';
import type { CallReply } from '../call-exchange.js';
import { errorBody } from '../plugins/error-handler.js';
import { SseWriter } from '../sse-writer.js';
import { callHeaders } from './call-headers.js';

export interface StreamTiming {
  /** Before the first streamed byte, wait this long before committing 200 and sending keep-alives. */
  keepAliveAfterMs: number;
  keepAliveEveryMs: number;
}

/**
 * A streamed answer over SSE. The reply is taken over from Fastify at once; status and headers
 * are committed with the first event, or after `keepAliveAfterMs` of waiting (then keep-alive
 * comments follow). An error before that is a whole error response (status and envelope); after
 * it, an in-band event in the codec's format.
 */
export class SseSink<K extends CallKind> implements CallSink<K> {
  private readonly writer: SseWriter;

  constructor(
    private readonly reply: CallReply,
    private readonly codec: Codec<K, never>,
    private readonly call: AcceptedCall,
    timing: StreamTiming,
  ) {
    const headers = callHeaders(call);
    // Also on the reply, though it is taken over: they mark it as an accepted call's (src/http/request-log.ts).
    reply.headers(headers);
    // Named fields, not `{ ...timing, headers }`: a spread followed by a key builds a new hidden class per object in V8.
    this.writer = new SseWriter(reply.raw, {
      keepAliveAfterMs: timing.keepAliveAfterMs,
      keepAliveEveryMs: timing.keepAliveEveryMs,
      headers,
    });
    reply.hijack();
    this.writer.startWaiting();
  }

  answer(): void {
    throw new Error('SseSink: a stream has no single answer');
  }

  begin(): void {
    this.writer.stopWaiting();
  }

  chunk(chunk: ChunkOf<K>): Promise<void> | undefined {
    return this.codec.chunk(this.writer, chunk);
  }

  fail(error: GatewayError, model: string): Promise<void> | undefined {
    this.writer.stopWaiting();
    if (this.writer.headersSent) return this.codec.streamError(this.writer, error, { call: this.call, model });
    const raw = this.reply.raw;
    if (!raw.destroyed)
      raw
        .writeHead(error.status, { 'content-type': 'application/json; charset=utf-8', ...error.headers })
        .end(JSON.stringify(errorBody(this.reply.request, error)));
    return undefined;
  }

  end(): void {
    this.codec.endStream(this.writer);
  }
}
