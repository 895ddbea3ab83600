import {
  checkMessages,
  deltaText,
  messagesText,
  toCanonicalChatRequest,
  type ChatRequestBody,
  type NativeUpstreamRequest,
} from '../../canonical/index.js';
import { errors } from '../../errors/index.js';
import type { ProviderAdapter } from '../../providers/index.js';
import { mergePreset } from '../../domain/presets/index.js';
import type { TextSegment } from '../../filters/index.js';
import type { BodyTexts, KindStrategy } from './strategy.js';

type Message = ChatRequestBody['messages'][number];

/** Where a text sits in a chat body: a message's content, one of its parts, or a tool call's arguments. */
type Place =
  | { at: 'content'; message: number }
  | { at: 'part'; message: number; part: number }
  | { at: 'arguments'; message: number; call: number };

const textOf = (part: unknown): string | null => {
  if (typeof part !== 'object' || part === null) return null;
  const text = (part as { text?: unknown }).text;
  return typeof text === 'string' ? text : null;
};

/** Message contents (strings and text parts), tool-call arguments and tool results. */
function chatTexts(body: ChatRequestBody): BodyTexts<ChatRequestBody> {
  const places: Place[] = [];
  const segments: TextSegment[] = [];
  const add = (place: Place, role: TextSegment['role'], text: string) => {
    places.push(place);
    segments.push({ role, text });
  };
  body.messages.forEach((m, message) => {
    if (typeof m.content === 'string') add({ at: 'content', message }, m.role, m.content);
    else if (Array.isArray(m.content)) {
      m.content.forEach((p, part) => {
        const text = textOf(p);
        if (text !== null) add({ at: 'part', message, part }, m.role, text);
      });
    }
    m.tool_calls?.forEach((c, call) => add({ at: 'arguments', message, call }, m.role, c.function.arguments));
  });
  return { segments, withTexts: (changes) => rewrite(body, changes, places) };
}

function rewrite(
  body: ChatRequestBody,
  changes: readonly { index: number; text: string }[],
  places: readonly Place[],
): ChatRequestBody {
  const messages: Message[] = body.messages.slice();
  const copied = new Set<number>();
  const own = (i: number): Message => {
    const m = messages[i] as Message;
    if (copied.has(i)) return m;
    const copy: Message = { ...m };
    if (Array.isArray(m.content)) copy.content = m.content.slice();
    if (m.tool_calls !== undefined) copy.tool_calls = m.tool_calls.map((c) => ({ ...c, function: { ...c.function } }));
    messages[i] = copy;
    copied.add(i);
    return copy;
  };
  for (const { index, text } of changes) {
    const place = places[index];
    if (place === undefined) continue;
    const m = own(place.message);
    if (place.at === 'content') m.content = text;
    else if (place.at === 'part' && Array.isArray(m.content))
      m.content[place.part] = { ...m.content[place.part], text } as (typeof m.content)[number];
    else if (place.at === 'arguments' && m.tool_calls !== undefined) {
      const call = m.tool_calls[place.call];
      if (call !== undefined) call.function.arguments = text;
    }
  }
  return { ...body, messages };
}

/** A kind the registry says speaks a dialect whose adapter cannot send it: a wiring bug. */
const noNative = (adapter: ProviderAdapter, req: NativeUpstreamRequest) =>
  errors.internal(new Error(`The ${adapter.kind} adapter has no native ${req.dialect}`));

/** `POST /chat/completions` and every surface decoded to a chat (Messages and Responses too: their native body rides beside it). */
export const chatStrategy: KindStrategy<'chat'> = {
  kind: 'chat',
  mergePreset: (body, version) => mergePreset(body, version),
  check: (body) => checkMessages(body.messages),
  texts: chatTexts,
  maxOutputTokens: (body) => body.max_completion_tokens ?? body.max_tokens ?? null,
  request: (body, upstreamModel) => toCanonicalChatRequest(body, upstreamModel),
  send: (adapter, endpoint, req, ctx) => adapter.chat(endpoint, req, ctx),
  sendStream: (adapter, endpoint, req, ctx) => adapter.chatStream(endpoint, req, ctx),
  sendNative(adapter, endpoint, req, ctx) {
    if (adapter.native === undefined) throw noNative(adapter, req);
    return adapter.native(endpoint, req, ctx);
  },
  streamNative(adapter, endpoint, req, ctx) {
    if (adapter.nativeStream === undefined) throw noNative(adapter, req);
    return adapter.nativeStream(endpoint, req, ctx);
  },
  finish(answer) {
    const first = answer.choices[0];
    return { reason: first?.finish_reason ?? null, native: first?.native_finish_reason ?? null };
  },
  chunkFinish(chunk) {
    for (const choice of chunk.choices)
      if (choice.finish_reason !== null && choice.finish_reason !== undefined) return choice.finish_reason;
    return null;
  },
  keepText(chunk, into) {
    for (const choice of chunk.choices) into.push(deltaText(choice.delta));
  },
  promptText: (req) => messagesText(req.messages),
};
