import {
  GATEWAY_ONLY_FIELDS,
  type CanonicalChatRequest,
  type CanonicalChunk,
  type MessagesCallAnswer,
  type MessagesCallChunk,
  type MessagesCallRequest,
  type MessagesRequestBody,
} from '../../canonical/index.js';
import { isRecord, str, type JsonRecord } from '../../canonical/json.js';
import type { CallContext, ProviderAdapter, ProviderEndpointConfig } from '../adapter.js';
import { takesMessagesNatively } from '../index.js';
import { decodeMessagesRequest } from './inbound/decode.js';
import { encodeMessagesResponse } from './inbound/encode.js';
import { MessagesStreamEncoder } from './inbound/stream-encoder.js';
import type { NativeEvent } from './outbound/native.js';
import { finishReason } from './outbound/response.js';

/**
 * A Messages call on one upstream: natively to an adapter that takes Messages bodies (every field
 * kept), otherwise decoded into a chat and the chat's answer or chunks encoded back into Messages
 * JSON or events. Whichever way, the gateway gets the `messages` kind's answer and chunks.
 */

/** A call's chat translation, decoded once (kept per prepared body; a refusal is kept too). */
const decoded = new WeakMap<MessagesRequestBody, CanonicalChatRequest | Error>();

function decodeOnce(body: MessagesRequestBody): CanonicalChatRequest | Error {
  let chat = decoded.get(body);
  if (chat === undefined) {
    try {
      chat = { ...decodeMessagesRequest(body), extra: {} };
    } catch (error) {
      chat = error instanceof Error ? error : new Error('untranslatable Messages body', { cause: error });
    }
    decoded.set(body, chat);
  }
  return chat;
}

/**
 * Why this body cannot be translated into a chat (a 400 naming the field: blocks only an Anthropic
 * upstream reads), or null when it can.
 */
export function untranslatable(body: MessagesRequestBody): Error | null {
  const chat = decodeOnce(body);
  return chat instanceof Error ? chat : null;
}

/** The chat a non-Anthropic upstream gets, for this call's upstream model. */
function chatRequest(req: MessagesCallRequest): CanonicalChatRequest {
  const chat = decodeOnce(req.prepared ?? req.body);
  if (chat instanceof Error) throw chat;
  return chat.model === req.body.model ? chat : { ...chat, model: req.body.model };
}

/** The body as the upstream receives it: Switchyard's routing fields removed. */
function upstreamBody(body: MessagesRequestBody): JsonRecord {
  const out: JsonRecord = {};
  for (const [key, value] of Object.entries(body)) if (!GATEWAY_ONLY_FIELDS.has(key)) out[key] = value;
  return out;
}

/** The text an upstream event streams, for an estimate when no usage comes. */
function eventText(data: JsonRecord): string {
  const delta = isRecord(data.delta) ? data.delta : null;
  if (delta === null) return '';
  return str(delta.text) ?? str(delta.partial_json) ?? str(delta.thinking) ?? '';
}

async function* nativeChunks(events: AsyncIterable<NativeEvent>, model: string): AsyncGenerator<MessagesCallChunk> {
  let id = '';
  for await (const e of events) {
    if (e.event === 'message_start' && isRecord(e.data.message)) id = str(e.data.message.id) ?? id;
    const chunk: MessagesCallChunk = { id, model, events: [{ event: e.event, data: e.data }], text: eventText(e.data) };
    if (e.usage !== undefined) chunk.usage = e.usage;
    if (e.event === 'message_delta' && isRecord(e.data.delta)) {
      const native = str(e.data.delta.stop_reason);
      if (native !== undefined) chunk.finish = finishReason(native);
    }
    yield chunk;
  }
}

async function* translatedChunks(
  chunks: AsyncIterable<CanonicalChunk>,
  model: string,
): AsyncGenerator<MessagesCallChunk> {
  let encoder: MessagesStreamEncoder | null = null;
  let id = '';
  for await (const c of chunks) {
    id = id === '' ? c.id : id;
    const events = [];
    if (encoder === null) {
      encoder = new MessagesStreamEncoder({ id, model });
      events.push(...encoder.start());
    }
    events.push(...encoder.chunk(c));
    const out: MessagesCallChunk = { id, model, events };
    if (c.usage !== undefined) out.usage = c.usage;
    const first = c.choices[0];
    if (first?.finish_reason !== null && first?.finish_reason !== undefined) out.finish = first.finish_reason;
    let text = '';
    for (const choice of c.choices) {
      text += choice.delta.content ?? '';
      if (choice.delta.tool_calls !== undefined) text += JSON.stringify(choice.delta.tool_calls);
    }
    out.text = text;
    yield out;
  }
  if (encoder !== null) yield { id, model, events: encoder.end() };
}

/** One Messages answer: the upstream's own, or a chat answer encoded as Messages JSON. */
export async function sendMessages(
  adapter: ProviderAdapter,
  endpoint: ProviderEndpointConfig,
  req: MessagesCallRequest,
  ctx: CallContext,
): Promise<MessagesCallAnswer> {
  if (adapter.messages !== undefined && takesMessagesNatively(endpoint.kind, req.body.model)) {
    const { message, usage } = await adapter.messages(endpoint, upstreamBody(req.body), ctx);
    const native = str(message.stop_reason) ?? null;
    return {
      id: str(message.id) ?? `msg-${ctx.requestId}`,
      model: str(message.model) ?? req.body.model,
      usage,
      message,
      finish: { reason: finishReason(native), native },
    };
  }
  const answer = await adapter.chat(endpoint, chatRequest(req), ctx);
  const first = answer.choices[0];
  return {
    id: answer.id,
    model: answer.model,
    usage: answer.usage,
    message: { ...encodeMessagesResponse(answer, { id: answer.id, model: answer.model }) },
    finish: { reason: first?.finish_reason ?? null, native: first?.native_finish_reason ?? null },
  };
}

/** A Messages stream: the upstream's events, or a chat stream encoded as Messages events. */
export async function streamMessages(
  adapter: ProviderAdapter,
  endpoint: ProviderEndpointConfig,
  req: MessagesCallRequest,
  ctx: CallContext,
): Promise<AsyncIterable<MessagesCallChunk>> {
  if (adapter.messagesStream !== undefined && takesMessagesNatively(endpoint.kind, req.body.model))
    return nativeChunks(await adapter.messagesStream(endpoint, upstreamBody(req.body), ctx), req.body.model);
  return translatedChunks(await adapter.chatStream(endpoint, chatRequest(req), ctx), req.body.model);
}
