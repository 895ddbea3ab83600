import {
  GATEWAY_ONLY_FIELDS,
  type CanonicalChatRequest,
  type CanonicalChunk,
  type MessagesRequestBody,
} from '../../canonical/index.js';
import { decodeMessagesRequest } from '../../providers/anthropic/inbound/decode.js';
import { encodeMessagesResponse } from '../../providers/anthropic/inbound/encode.js';
import type { MessagesCallAnswer, MessagesCallChunk } from '../../providers/anthropic/inbound/kind-types.js';
import { MessagesStreamEncoder } from '../../providers/anthropic/inbound/stream-encoder.js';
import type { NativeEvent } from '../../providers/anthropic/native.js';
import { finishReason } from '../../providers/anthropic/response.js';
import { isRecord, str, type JsonRecord } from '../../providers/json.js';
import type { CallContext, ProviderAdapter, ProviderEndpointConfig } from '../../providers/index.js';
import { mergePresetIntoMessages } from './messages-preset.js';
import { messagesTexts } from './messages-texts.js';
import type { KindStrategy } from './strategy.js';

/**
 * `POST /messages`: an Anthropic Messages body. To an Anthropic upstream it goes natively (the
 * adapter's `messages` methods), every field kept; to any other upstream it is translated into a
 * chat and the chat's answer back into Messages JSON or events.
 */

/** The body as the upstream receives it: Switchyard's routing fields removed. */
function upstreamBody(body: MessagesRequestBody): JsonRecord {
  const out: JsonRecord = {};
  for (const [key, value] of Object.entries(body)) if (!GATEWAY_ONLY_FIELDS.has(key)) out[key] = value;
  return out;
}

/** Whether this adapter takes the body as it is (otherwise it is translated into a chat). */
function takesNatively(adapter: ProviderAdapter, stream: boolean): boolean {
  return stream ? adapter.messagesStream !== undefined : adapter.messages !== undefined;
}

function chatRequest(body: MessagesRequestBody): CanonicalChatRequest {
  return { ...decodeMessagesRequest(body), extra: {} };
}

async function nativeAnswer(
  adapter: Required<Pick<ProviderAdapter, 'messages'>>,
  endpoint: ProviderEndpointConfig,
  body: MessagesRequestBody,
  ctx: CallContext,
): Promise<MessagesCallAnswer> {
  const { message, usage } = await adapter.messages(endpoint, upstreamBody(body), ctx);
  const native = str(message.stop_reason) ?? null;
  return {
    id: str(message.id) ?? `msg-${ctx.requestId}`,
    model: str(message.model) ?? body.model,
    usage,
    message,
    finish: { reason: finishReason(native), native },
  };
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

export const messagesStrategy: KindStrategy<'messages'> = {
  kind: 'messages',
  mergePreset: mergePresetIntoMessages,
  check: () => undefined,
  carriers(body, candidates, providers) {
    const stream = body.stream === true;
    const native = candidates.filter((c) => takesNatively(providers.get(c.provider.kind), stream));
    if (native.length === candidates.length) return candidates;
    try {
      decodeMessagesRequest(body);
      return candidates;
    } catch (error) {
      // Blocks only an Anthropic upstream reads: the call goes to those that can, or is refused.
      if (native.length === 0) throw error;
      return native;
    }
  },
  texts: messagesTexts,
  maxOutputTokens: (body) => body.max_tokens,
  request: (body, upstreamModel) => ({ body: { ...body, model: upstreamModel } }),
  async send(adapter, endpoint, req, ctx) {
    if (adapter.messages !== undefined)
      return nativeAnswer({ messages: adapter.messages.bind(adapter) }, endpoint, req.body, ctx);
    const answer = await adapter.chat(endpoint, chatRequest(req.body), ctx);
    const first = answer.choices[0];
    return {
      id: answer.id,
      model: answer.model,
      usage: answer.usage,
      message: { ...encodeMessagesResponse(answer, { id: answer.id, model: answer.model }) },
      finish: { reason: first?.finish_reason ?? null, native: first?.native_finish_reason ?? null },
    };
  },
  async sendStream(adapter, endpoint, req, ctx) {
    if (adapter.messagesStream !== undefined)
      return nativeChunks(await adapter.messagesStream(endpoint, upstreamBody(req.body), ctx), req.body.model);
    return translatedChunks(await adapter.chatStream(endpoint, chatRequest(req.body), ctx), req.body.model);
  },
  finish: (answer) => answer.finish,
  chunkFinish: (chunk) => chunk.finish ?? null,
  keepText(chunk, into) {
    if (chunk.text !== undefined && chunk.text !== '') into.push(chunk.text);
  },
};
