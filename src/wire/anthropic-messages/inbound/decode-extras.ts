import type { ChatMessage, ReasoningEffort, TextPart } from '../../../canonical/index.js';
import { isRecord } from '../../../canonical/json.js';
import type { MessagesBlock, MessagesRequestBody } from '../../../canonical/index.js';

/**
 * The parts of a Messages body that newer Anthropic clients send and that a chat has a
 * meaning for: `system` entries inside `messages` (kept in place as system messages),
 * `output_config.effort` (the reasoning effort) and `metadata.user_id` when it is a plain
 * identifier. Everything else Anthropic-only (`context_management`, server tool blocks, unknown
 * fields) has no meaning in a chat and is dropped by the translation; docs/messages.md lists
 * each field's fate.
 */

/** Block types a translation reads; any other type is Anthropic-only and dropped. */
export const TRANSLATED_BLOCK_TYPES: ReadonlySet<string> = new Set([
  'text',
  'image',
  'document',
  'tool_use',
  'tool_result',
  'thinking',
  'redacted_thinking',
]);

/** A `system` entry of `messages` as a system message in the same place (its text blocks joined). */
export function systemEntry(content: string | MessagesBlock[]): ChatMessage | null {
  if (typeof content === 'string') return content === '' ? null : { role: 'system', content };
  const parts: TextPart[] = [];
  for (const block of content) {
    const text: unknown = (block as Record<string, unknown>).text;
    if (block.type === 'text' && typeof text === 'string') parts.push({ type: 'text', text });
  }
  if (parts.length === 0) return null;
  return { role: 'system', content: parts.map((p) => p.text).join('\n\n') };
}

const EFFORTS: ReadonlySet<string> = new Set(['max', 'xhigh', 'high', 'medium', 'low', 'minimal', 'none']);

/** `output_config.effort` as a reasoning effort, when it is one. */
export function outputEffort(body: MessagesRequestBody): ReasoningEffort | undefined {
  const config: unknown = (body as Record<string, unknown>).output_config;
  if (!isRecord(config) || typeof config.effort !== 'string' || !EFFORTS.has(config.effort)) return undefined;
  return config.effort as ReasoningEffort;
}

/**
 * `metadata.user_id` as a chat `user`, only when it is a plain identifier: Claude Code sends a
 * JSON document (device, account and session ids) there, which is no end-user id and which an
 * OpenAI upstream would refuse past 64 characters.
 */
export function plainUserId(value: unknown): string | undefined {
  if (typeof value !== 'string' || value === '' || value.length > 64) return undefined;
  return /^[\w.@:+-]+$/.test(value) ? value : undefined;
}
