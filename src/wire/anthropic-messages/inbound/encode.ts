import type { CanonicalChatResponse, CanonicalUsage } from '../../../canonical/index.js';
import { isRecord, type JsonRecord } from '../../../canonical/json.js';

/** Canonical responses → the Messages API answer (the inverse of the Anthropic adapter's mapping). */

const ANTHROPIC_STOP_REASONS: ReadonlySet<string> = new Set([
  'end_turn',
  'max_tokens',
  'stop_sequence',
  'tool_use',
  'pause_turn',
  'refusal',
  'model_context_window_exceeded',
]);

const FROM_FINISH: Record<string, string> = {
  stop: 'end_turn',
  length: 'max_tokens',
  tool_calls: 'tool_use',
  content_filter: 'refusal',
};

/**
 * The Messages `stop_reason` of a call: the upstream's own reason when it was an Anthropic one
 * (so `stop_sequence` and `pause_turn` survive), else the canonical finish reason translated.
 */
export function stopReason(finish: string | null | undefined, native?: string | null): string | null {
  if (typeof native === 'string' && ANTHROPIC_STOP_REASONS.has(native)) return native;
  if (finish === null || finish === undefined) return null;
  return FROM_FINISH[finish] ?? 'end_turn';
}

export interface MessagesUsage {
  input_tokens: number;
  output_tokens: number;
  cache_creation_input_tokens: number;
  cache_read_input_tokens: number;
}

/** Canonical `prompt_tokens` include cached tokens; Anthropic's `input_tokens` do not. */
export function messagesUsage(usage: CanonicalUsage | null | undefined): MessagesUsage {
  const cacheRead = usage?.prompt_tokens_details?.cached_tokens ?? 0;
  const cacheWrite = usage?.prompt_tokens_details?.cache_write_tokens ?? 0;
  return {
    input_tokens: Math.max(0, (usage?.prompt_tokens ?? 0) - cacheRead - cacheWrite),
    output_tokens: usage?.completion_tokens ?? 0,
    cache_creation_input_tokens: cacheWrite,
    cache_read_input_tokens: cacheRead,
  };
}

/** Arguments of a tool call as the object `tool_use.input` must be (`{}` when they are not JSON). */
export function toolInput(args: string): JsonRecord {
  if (args.trim() === '') return {};
  try {
    const value: unknown = JSON.parse(args);
    return isRecord(value) ? value : { value };
  } catch {
    return {};
  }
}

export interface MessagesAnswer {
  id: string;
  type: 'message';
  role: 'assistant';
  model: string;
  content: JsonRecord[];
  stop_reason: string | null;
  stop_sequence: string | null;
  usage: MessagesUsage;
}

/** `id` is the generation id and `model` the catalog slug that served the call. */
export function encodeMessagesResponse(
  response: CanonicalChatResponse,
  meta: { id: string; model: string },
): MessagesAnswer {
  const choice = response.choices[0];
  const content: JsonRecord[] = [];
  const message = choice?.message;
  for (const detail of message?.reasoning_details ?? []) {
    if (detail.type === 'reasoning.text' && typeof detail.text === 'string')
      content.push({ type: 'thinking', thinking: detail.text, signature: detail.signature ?? '' });
    else if (detail.type === 'reasoning.encrypted' && typeof detail.data === 'string')
      content.push({ type: 'redacted_thinking', data: detail.data });
  }
  if (content.length === 0 && typeof message?.reasoning === 'string' && message.reasoning !== '')
    content.push({ type: 'thinking', thinking: message.reasoning, signature: '' });
  const text = message?.content ?? null;
  if (text !== null && text !== '') content.push({ type: 'text', text });
  for (const call of message?.tool_calls ?? [])
    content.push({
      type: 'tool_use',
      id: call.id,
      name: call.function.name,
      input: toolInput(call.function.arguments),
    });
  return {
    id: meta.id,
    type: 'message',
    role: 'assistant',
    model: meta.model,
    content,
    stop_reason: stopReason(choice?.finish_reason, choice?.native_finish_reason),
    stop_sequence: null,
    usage: messagesUsage(response.usage),
  };
}
