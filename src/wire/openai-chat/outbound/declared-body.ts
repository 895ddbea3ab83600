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

function outboundMessage(message: unknown): JsonRecord | null {
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

function outboundTools(tools: unknown): JsonRecord[] {
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

/** `reasoning.effort` (or its `enabled`) as `reasoning_effort`, when the body sets none itself. */
function effortOf(body: JsonRecord): string | undefined {
  const own = body.reasoning_effort;
  if (typeof own === 'string') return OPENAI_EFFORTS[own];
  const reasoning = body.reasoning;
  if (!isRecord(reasoning)) return undefined;
  if (typeof reasoning.effort === 'string') return OPENAI_EFFORTS[reasoning.effort];
  return undefined; // a token budget or a bare switch: the model's own default effort
}

export function openAiChatBody(body: JsonRecord): JsonRecord {
  const out: JsonRecord = {};
  for (const [key, value] of Object.entries(body)) if (ALLOWED.has(key) && value !== undefined) out[key] = value;
  if (Array.isArray(body.messages))
    out.messages = body.messages.map(outboundMessage).filter((m): m is JsonRecord => m !== null);
  const effort = effortOf(body);
  if (effort !== undefined) out.reasoning_effort = effort;
  else delete out.reasoning_effort;
  if (body.tools !== undefined) {
    const tools = outboundTools(body.tools);
    if (tools.length > 0) out.tools = tools;
    else {
      delete out.tools;
      delete out.tool_choice;
      delete out.parallel_tool_calls;
    }
  }
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
