import {
  contentText,
  estimateTokens,
  isFunctionTool,
  maxOutputTokens,
  stopList,
  type CanonicalChatRequest,
  type FunctionTool,
  type ToolCall,
} from '../../canonical/index.js';
import { isRecord, type JsonRecord } from '../../canonical/json.js';
import { jsonFromSchema } from './json-from-schema.js';

/** What the demo provider answers: a pure function of the request (no randomness, no clock). */
export interface DemoAnswer {
  /** Word-sized pieces of the text answer (their concatenation is the content). */
  pieces: string[];
  toolCalls: ToolCall[];
  finishReason: 'stop' | 'length' | 'tool_calls';
  promptTokens: number;
  completionTokens: number;
}

const MAX_ECHO = 200;

function fnv1a(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0).toString(16).padStart(8, '0');
}

function chosenTool(req: CanonicalChatRequest): FunctionTool | null {
  const tools = (req.tools ?? []).filter(isFunctionTool);
  if (tools.length === 0 || req.tool_choice === 'none') return null;
  const last = req.messages[req.messages.length - 1];
  if (last === undefined || last.role === 'tool') return null;
  const choice = req.tool_choice;
  if (isRecord(choice) && choice.type === 'function' && isRecord(choice.function)) {
    const name = choice.function.name;
    return tools.find((t) => t.function.name === name) ?? null;
  }
  return tools[0] ?? null;
}

function argumentsFor(tool: FunctionTool, text: string): JsonRecord {
  const schema = tool.function.parameters;
  const out: JsonRecord = {};
  if (!isRecord(schema) || !isRecord(schema.properties)) return out;
  const required = Array.isArray(schema.required)
    ? schema.required.filter((r): r is string => typeof r === 'string')
    : [];
  for (const name of required) {
    const prop = schema.properties[name];
    const type = isRecord(prop) ? prop.type : undefined;
    out[name] =
      type === 'number' || type === 'integer'
        ? 1
        : type === 'boolean'
          ? true
          : type === 'array'
            ? []
            : type === 'object'
              ? {}
              : text;
  }
  return out;
}

export function splitWords(text: string): string[] {
  return text.match(/\s*\S+\s*/g) ?? (text === '' ? [] : [text]);
}

export function demoAnswer(req: CanonicalChatRequest): DemoAnswer {
  let prompt = '';
  for (const m of req.messages) prompt += contentText(m.content ?? null) + '\n';
  const promptTokens = Math.max(1, estimateTokens(prompt));
  const last = req.messages[req.messages.length - 1];
  const lastUser = [...req.messages].reverse().find((m) => m.role === 'user');
  const userText = contentText(lastUser?.content ?? null)
    .trim()
    .slice(0, MAX_ECHO);

  const tool = chosenTool(req);
  if (tool !== null) {
    const args = JSON.stringify(argumentsFor(tool, userText));
    const call: ToolCall = {
      id: `call_demo_${fnv1a(prompt + tool.function.name)}`,
      type: 'function',
      function: { name: tool.function.name, arguments: args },
    };
    return {
      pieces: [],
      toolCalls: [call],
      finishReason: 'tool_calls',
      promptTokens,
      completionTokens: Math.max(1, estimateTokens(tool.function.name + args)),
    };
  }

  let text: string;
  const json = jsonAnswer(req, userText);
  if (json !== null) text = json;
  else if (last?.role === 'tool')
    text = `Demo provider received the tool result: ${contentText(last.content).trim().slice(0, MAX_ECHO)}`;
  else if (userText === '') text = 'Hello from the Switchyard demo provider.';
  else text = `Demo reply (${req.model}): you said "${userText}".`;

  let finishReason: DemoAnswer['finishReason'] = 'stop';
  for (const stop of stopList(req)) {
    const at = stop === '' ? -1 : text.indexOf(stop);
    if (at >= 0) text = text.slice(0, at);
  }
  let pieces = json !== null ? (text.match(/[^]{1,16}/g) ?? []) : splitWords(text);
  const cap = maxOutputTokens(req);
  if (cap !== null && pieces.length > cap) {
    pieces = pieces.slice(0, cap);
    finishReason = 'length';
  }
  return { pieces, toolCalls: [], finishReason, promptTokens, completionTokens: pieces.length };
}

/**
 * The JSON text answering a `json_schema` response format (a value valid against the schema,
 * strings filled with the user's words) or `json_object` (`{"reply": …}`); null for plain text.
 */
function jsonAnswer(req: CanonicalChatRequest, userText: string): string | null {
  const format = req.response_format;
  if (format?.type === 'json_object') return JSON.stringify({ reply: userText === '' ? 'demo' : userText });
  if (format?.type !== 'json_schema' || !isRecord(format.json_schema)) return null;
  return JSON.stringify(jsonFromSchema(format.json_schema.schema ?? {}, userText === '' ? 'demo' : userText));
}

export function demoId(req: CanonicalChatRequest): string {
  let prompt = req.model;
  for (const m of req.messages) prompt += m.role + contentText(m.content ?? null);
  return `gen-demo-${fnv1a(prompt)}`;
}
