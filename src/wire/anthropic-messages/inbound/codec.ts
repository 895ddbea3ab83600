import { nativeEventText, type MessagesRequestBody } from '../../../canonical/index.js';
import { anthropicErrorType, type GatewayError } from '../../../errors/index.js';
import type { Codec, EventWriter } from '../../codec.js';
import { encodeMessagesResponse } from './encode.js';
import { messagesNative } from './native-request.js';
import { MessagesStreamEncoder, type MessagesEvent } from './stream-encoder.js';

function write(writer: EventWriter, events: readonly MessagesEvent[]): Promise<void> | undefined {
  let drained: Promise<void> | undefined;
  for (const e of events) drained = writer.event(e.event, nativeEventText(e)) ?? drained;
  return drained;
}

/**
 * `POST /messages`, Anthropic's wire format, decoded to a chat with the client's body kept for
 * candidates that speak Messages (src/wire/anthropic-messages/inbound/native-request.ts). One
 * codec per request: a translated stream's encoder is its state. Answers and chunks reach it
 * relabelled (generation id, catalog slug): a native one is written as the upstream sent it with
 * those two set in it (the one relabelling), a translated one is encoded with them.
 */
export function messagesCodec(): Codec<'chat', MessagesRequestBody> {
  let encoder: MessagesStreamEncoder | null = null;
  let failed = false;
  return {
    apiType: 'messages',
    decode(body) {
      const native = messagesNative(body);
      return { kind: 'chat', body: native.chat, native };
    },
    answer(value) {
      if (value.native?.dialect === 'anthropic-messages')
        return { ...value.native.body, id: value.id, model: value.model };
      return encodeMessagesResponse(value, { id: value.id, model: value.model });
    },
    chunk(writer, chunk) {
      if (chunk.native?.dialect === 'anthropic-messages') {
        const events = chunk.native.events.map((e) =>
          e.event === 'message_start' && typeof e.data.message === 'object' && e.data.message !== null
            ? { event: e.event, data: { ...e.data, message: { ...e.data.message, id: chunk.id, model: chunk.model } } }
            : e,
        );
        return write(writer, events);
      }
      const events: MessagesEvent[] = [];
      if (encoder === null) {
        encoder = new MessagesStreamEncoder({ id: chunk.id, model: chunk.model });
        events.push(...encoder.start());
      }
      events.push(...encoder.chunk(chunk));
      return write(writer, events);
    },
    streamError(writer: EventWriter, error: GatewayError) {
      failed = true;
      return writer.event(
        'error',
        JSON.stringify({ type: 'error', error: { type: anthropicErrorType(error.status), message: error.message } }),
      );
    },
    endStream(writer: EventWriter) {
      // A translated stream's closing events (a native stream brought its own).
      if (encoder !== null && !failed) void write(writer, encoder.end());
      writer.end('');
    },
  };
}
