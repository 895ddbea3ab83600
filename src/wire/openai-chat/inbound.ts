import type { AcceptedCall, ChatRequestBody } from '../../canonical/index.js';
import type { GatewayError } from '../../errors/index.js';
import type { Codec, EventWriter } from '../codec.js';

/** The in-band error event of an OpenAI-style stream: the envelope's fields plus a final choice. */
function errorEvent(call: AcceptedCall, model: string, error: GatewayError): string {
  const base = { id: call.generationId, created: Math.floor(Date.now() / 1000), model };
  const payload = { code: error.status, message: error.message, metadata: error.metadata };
  return JSON.stringify(
    call.kind === 'chat'
      ? {
          ...base,
          object: 'chat.completion.chunk',
          error: payload,
          choices: [{ index: 0, delta: { content: '' }, finish_reason: 'error' }],
        }
      : {
          ...base,
          object: 'text_completion',
          error: payload,
          choices: [{ index: 0, text: '', finish_reason: 'error' }],
        },
  );
}

/**
 * OpenAI's wire format is the canonical one: answers and chunks go out as they are (chat and
 * legacy completions share it).
 */
export const openAiWire = {
  apiType: 'completions',
  answer: (value: unknown) => value,
  chunk: (writer: EventWriter, chunk: unknown) => writer.data(JSON.stringify(chunk)),
  streamError: (writer: EventWriter, error: GatewayError, at: { call: AcceptedCall; model: string }) =>
    writer.data(errorEvent(at.call, at.model, error)),
  endStream: (writer: EventWriter) => writer.end(),
} as const;

/** `POST /chat/completions`. */
export const chatCompletionsCodec: Codec<'chat', ChatRequestBody> = {
  ...openAiWire,
  apiType: 'chat',
  decode: (body) => ({ kind: 'chat', body }),
};
