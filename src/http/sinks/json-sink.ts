import type { CallKind } from '../../canonical/index.js';
import type { GatewayError } from '../../errors/index.js';
import type { AcceptedCall, AnswerOf, CallSink } from '../../gateway/call.js';
import type { Codec } from '../../wire/codec.js';
import type { CallReply } from '../call-exchange.js';
import { jsonCallHeaders } from './call-headers.js';

/**
 * A non-streamed answer: the call's headers and the API's at once, then the encoded answer as the
 * reply (the route runs no `onSend` hook: `answeredBySink`). An error is rethrown, so the one
 * error handler renders the envelope (the headers stay).
 */
export class JsonSink<K extends CallKind> implements CallSink<K> {
  constructor(
    private readonly reply: CallReply,
    private readonly codec: Codec<K, never>,
    call: AcceptedCall,
  ) {
    reply.headers(jsonCallHeaders(call));
  }

  answer(value: AnswerOf<K>): void {
    void this.reply.send(this.codec.answer(value));
  }

  begin(): void {
    throw new Error('JsonSink: not a stream');
  }

  chunk(): undefined {
    throw new Error('JsonSink: not a stream');
  }

  fail(error: GatewayError): undefined {
    throw error;
  }

  end(): void {
    // The reply was sent by answer() or by the error handler.
  }
}
