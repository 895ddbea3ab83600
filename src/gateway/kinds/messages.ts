import { takesMessagesNatively } from '../../wire/index.js';
import { sendMessages, streamMessages, untranslatable } from '../../wire/anthropic-messages/via-chat.js';
import { mergePresetIntoMessages } from './messages-preset.js';
import { messagesTexts } from './messages-texts.js';
import type { KindStrategy } from './strategy.js';

/**
 * `POST /messages`: an Anthropic Messages body. A candidate that speaks the Messages dialect gets
 * it natively, every field kept; any other gets it translated into a chat and the answer back
 * (src/wire/anthropic-messages/via-chat.ts). Which way is a property of the candidate's kind.
 */
export const messagesStrategy: KindStrategy<'messages'> = {
  kind: 'messages',
  mergePreset: mergePresetIntoMessages,
  check: () => undefined,
  carriers(body, candidates) {
    const native = candidates.filter((c) => takesMessagesNatively(c.provider.kind, c.endpoint.upstreamModel));
    if (native.length === candidates.length) return candidates;
    const refusal = untranslatable(body);
    if (refusal === null) return candidates;
    // Blocks only an Anthropic upstream reads: the call goes to those that can, or is refused.
    if (native.length === 0) throw refusal;
    return native;
  },
  texts: messagesTexts,
  maxOutputTokens: (body) => body.max_tokens,
  request: (body, upstreamModel) => ({ body: { ...body, model: upstreamModel }, prepared: body }),
  send: sendMessages,
  sendStream: streamMessages,
  finish: (answer) => answer.finish,
  chunkFinish: (chunk) => chunk.finish ?? null,
  keepText(chunk, into) {
    if (chunk.text !== undefined && chunk.text !== '') into.push(chunk.text);
  },
};
