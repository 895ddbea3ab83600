import type { CanonicalChatRequest } from '../../../canonical/index.js';
import { isRecord, type JsonRecord } from '../../../canonical/json.js';
import {
  OPENAI_CHAT_FIELDS,
  OPENAI_COMPLETION_FIELDS,
  OPENAI_EFFORTS,
  OPENAI_MESSAGE_SHAPES,
  OPENAI_PART_FIELDS,
  OPENAI_TOOL_SHAPES,
} from './declaration.js';

/**
 * A chat body cut to what an OpenAI-compatible upstream accepts (declaration.ts): unknown
 * top-level fields, message fields, content parts and part fields (`cache_control`), and tool
 * kinds are dropped, never forwarded; `reasoning` becomes `reasoning_effort`, its only meaning
 * there. A client field with no meaning upstream is dropped, not passed as is.
 */

const ALLOWED: ReadonlySet<string> = new Set(OPENAI_CHAT_FIELDS);

function pick(source: JsonRecord, fields: readonly string[]): JsonRecord {
  const out: JsonRecord = {};
  for (const field of fields) if (source[field] !== undefined) out[field] = source[field];
  return out;
}

function outboundContent(content: unknown, parts: readonly string[]): unknown {
  if (!Array.isArray(content)) return content;
  const kept: JsonRecord[] = [];
  for (const part of content) {
    if (!isRecord(part) || typeof part.type !== 'string' || !parts.includes(part.type)) continue;
    kept.push(pick(part, OPENAI_PART_FIELDS[part.type] ?? ['type']));
  }
  return kept;
}

export function outboundMessage(message: unknown): JsonRecord | null {
  if (!isRecord(message) || typeof message.role !== 'string') return null;
  const shape = OPENAI_MESSAGE_SHAPES[message.role];
  if (shape === undefined) return null;
  const out = pick(message, shape.fields);
  if (out.content !== undefined) {
    const content = outboundContent(out.content, shape.parts);
    // A list left empty (only parts this upstream cannot read): no content, or an empty text.
    if (Array.isArray(content) && content.length === 0)
      out.content = message.role === 'assistant' && Array.isArray(message.tool_calls) ? null : '';
    else out.content = content;
  }
  return out;
}

export function outboundTools(tools: unknown): JsonRecord[] {
  if (!Array.isArray(tools)) return [];
  const out: JsonRecord[] = [];
  for (const tool of tools) {
    if (!isRecord(tool) || typeof tool.type !== 'string') continue;
    const shape = OPENAI_TOOL_SHAPES[tool.type];
    const inner = shape === undefined ? undefined : tool[tool.type];
    if (shape === undefined || !isRecord(inner)) continue; // hosted or vendor tools: no meaning here
    out.push({ ...pick(tool, shape.fields), [tool.type]: pick(inner, shape.inner) });
  }
  return out;
}

/** `reasoning.effort` as `reasoning_effort`, when the request sets none itself. */
export function effortOf(own: unknown, reasoning: unknown): string | undefined {
  if (typeof own === 'string') return OPENAI_EFFORTS[own];
  if (!isRecord(reasoning)) return undefined;
  if (typeof reasoning.effort === 'string') return OPENAI_EFFORTS[reasoning.effort];
  return undefined; // a token budget or a bare switch: the model's own default effort
}

/** The declared messages, each cut to its role's fields and parts; an undeclared role is dropped. */
export function outboundMessages(messages: readonly unknown[]): JsonRecord[] {
  const out: JsonRecord[] = [];
  for (const message of messages) {
    const kept = outboundMessage(message);
    if (kept !== null) out.push(kept);
  }
  return out;
}

/**
 * The upstream chat body built in one pass over the request: the extras' keys first, then the
 * typed fields' (a typed value wins over an extra of the same name and keeps the extra's place),
 * then `model`, `stream`, `stream_options` and `reasoning_effort` where the request had none;
 * only declared fields with a value are written. Each key's value is settled before it is
 * written, so nothing is deleted afterwards. The key order is the one the upstream has always
 * received (extras, typed fields, model, stream).
 */
export function openAiChatBody(req: CanonicalChatRequest, stream: boolean): JsonRecord {
  const extra = req.extra;
  const typed = req as unknown as JsonRecord;
  const merged = (key: string): unknown => (typed[key] !== undefined ? typed[key] : extra[key]);
  const effort = effortOf(merged('reasoning_effort'), merged('reasoning'));
  const rawTools = merged('tools');
  const tools = rawTools === undefined ? undefined : outboundTools(rawTools);
  const noTools = tools !== undefined && tools.length === 0;
  const valueOf = (key: string): unknown => {
    switch (key) {
      case 'model':
        return req.model;
      case 'stream':
        return stream;
      case 'stream_options':
        return stream
          ? { ...(isRecord(extra.stream_options) ? extra.stream_options : {}), include_usage: true }
          : undefined;
      case 'reasoning_effort':
        return effort;
      case 'tools':
        return noTools ? undefined : tools;
      case 'tool_choice':
      case 'parallel_tool_calls':
        return noTools ? undefined : merged(key);
      case 'messages': {
        const messages = merged(key);
        return Array.isArray(messages) ? outboundMessages(messages) : messages;
      }
      default:
        return merged(key);
    }
  };
  const out: JsonRecord = {};
  const put = (key: string): void => {
    if (!ALLOWED.has(key) || key in out) return;
    const value = valueOf(key);
    if (value !== undefined) out[key] = value;
  };
  // An extra's key holds its place even without a value (a typed value may fill it).
  for (const key of Object.keys(extra)) put(key);
  for (const key of Object.keys(typed)) if (key !== 'extra' && typed[key] !== undefined) put(key);
  put('model');
  put('stream');
  put('stream_options');
  put('reasoning_effort');
  return out;
}

const COMPLETION_ALLOWED: ReadonlySet<string> = new Set(OPENAI_COMPLETION_FIELDS);

/** A legacy completions body cut to the fields OpenAI's completions API accepts. */
export function openAiCompletionBody(body: JsonRecord): JsonRecord {
  const out: JsonRecord = {};
  for (const [key, value] of Object.entries(body))
    if (COMPLETION_ALLOWED.has(key) && value !== undefined) out[key] = value;
  return out;
}
