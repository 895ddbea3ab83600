import type { MessagesRequestBody } from '../../../canonical/index.js';
import { anthropicErrorType, type GatewayError } from '../../../errors/index.js';
import type { Codec, EventWriter } from '../../codec.js';

/**
 * `POST /messages`, Anthropic's wire format. The translation itself (to and from chats, or the
 * native pass-through) is the `messages` kind's (src/gateway/kinds/messages.ts); here the answer
 * gets the generation id and the catalog slug, and events are written as named SSE events.
 */
export const messagesCodec: Codec<'messages', MessagesRequestBody> = {
  apiType: 'messages',
  decode: (body) => ({ kind: 'messages', body }),
  answer: (value) => ({ ...value.message, id: value.id, model: value.model }),
  chunk(writer: EventWriter, chunk) {
    let drained: Promise<void> | undefined;
    for (const e of chunk.events) {
      let data = e.data;
      if (e.event === 'message_start' && typeof data.message === 'object' && data.message !== null)
        data = { ...data, message: { ...data.message, id: chunk.id, model: chunk.model } };
      drained = writer.event(e.event, JSON.stringify(data)) ?? drained;
    }
    return drained;
  },
  streamError: (writer: EventWriter, error: GatewayError) =>
    writer.event(
      'error',
      JSON.stringify({ type: 'error', error: { type: anthropicErrorType(error.status), message: error.message } }),
    ),
  endStream: (writer: EventWriter) => writer.end(''),
};
