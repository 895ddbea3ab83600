import type { ChatRequestBody, MessagesRequestBody, NativeRequest } from '../../../canonical/index.js';
import type { JsonRecord } from '../../../canonical/json.js';
import { decodeMessagesRequest } from './decode.js';
import { mergePresetIntoMessages } from './preset.js';
import { messagesTexts } from './texts.js';

/** Switchyard's routing fields, read by the core from the chat: the same on both bodies. */
const ROUTING = ['models', 'provider'] as const;

/** The chat that only routes: a body without a chat translation is never sent as one. */
function routingOnly(body: MessagesRequestBody): ChatRequestBody {
  const chat: ChatRequestBody = { model: body.model, messages: [], max_tokens: body.max_tokens };
  if (body.stream !== undefined) chat.stream = body.stream;
  return chat;
}

/**
 * A `/messages` call: the client's Messages body, kept for candidates that speak Messages
 * (Anthropic), and its chat translation, decoded once here for every other candidate. A body
 * the translation cannot carry (blocks only Anthropic reads) has a reason instead, and goes to
 * Anthropic candidates only.
 */
export function messagesNative(body: MessagesRequestBody): NativeRequest {
  let chat: ChatRequestBody;
  let untranslatable: Error | null = null;
  try {
    // The decoded request has the chat body's fields (it is what toCanonicalChatRequest makes of one).
    chat = decodeMessagesRequest(body);
  } catch (error) {
    untranslatable = error instanceof Error ? error : new Error('untranslatable Messages body', { cause: error });
    chat = routingOnly(body);
  }
  const routing = body as JsonRecord;
  for (const field of ROUTING) if (routing[field] !== undefined) (chat as JsonRecord)[field] = routing[field];
  return {
    dialect: 'anthropic-messages',
    body,
    chat,
    untranslatable,
    texts: () => messagesTexts(body),
    mergePreset: (merged, preset) => mergePresetIntoMessages(merged as MessagesRequestBody, preset),
    with: (next) => messagesNative(next as MessagesRequestBody),
  };
}
