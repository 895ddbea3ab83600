import {
  isFunctionTool,
  maxOutputTokens,
  stopList,
  type AssistantMessageInput,
  type CanonicalChatRequest,
  type ContentPart,
  type MessageContent,
  type ReasoningConfig,
  type ToolChoice,
} from '../../canonical/index.js';
import { isRecord, type JsonRecord } from '../../canonical/json.js';
import { THOUGHT_SIGNATURE_FORMAT } from './parts.js';

/**
 * Canonical (OpenAI-shaped) chat request → a Gemini `generateContent` body (the Gemini API and
 * Vertex AI's `publishers/google` models take the same one).
 */

type Part = JsonRecord;
interface Content {
  role: 'user' | 'model';
  parts: Part[];
}

/** Share of the output cap spent thinking, by effort (a budget is what Gemini takes). */
const EFFORT_RATIO: Record<string, number> = { max: 0.95, xhigh: 0.9, high: 0.8, medium: 0.5, low: 0.2, minimal: 0.1 };
const DEFAULT_THINKING_CAP = 8192;

const IMAGE_TYPES: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  webp: 'image/webp',
  gif: 'image/gif',
  heic: 'image/heic',
  pdf: 'application/pdf',
};

function dataUrl(url: string): { mimeType: string; data: string } | null {
  const m = /^data:([^;,]+);base64,(.*)$/s.exec(url);
  return m === null || m[1] === undefined || m[2] === undefined ? null : { mimeType: m[1], data: m[2] };
}

/** A URL's media type from its extension (Gemini's `fileData` needs one), JPEG when unknown. */
function urlMimeType(url: string): string {
  const ext = /\.([a-z0-9]+)(?:[?#].*)?$/i.exec(url)?.[1]?.toLowerCase();
  return (ext === undefined ? undefined : IMAGE_TYPES[ext]) ?? 'image/jpeg';
}

function contentPart(part: ContentPart): Part | null {
  if (part.type === 'text') return typeof part.text === 'string' && part.text !== '' ? { text: part.text } : null;
  if (part.type === 'image_url' && isRecord(part.image_url) && typeof part.image_url.url === 'string') {
    const url = part.image_url.url;
    const inline = dataUrl(url);
    return inline === null ? { fileData: { mimeType: urlMimeType(url), fileUri: url } } : { inlineData: inline };
  }
  if (part.type === 'file' && isRecord(part.file) && typeof part.file.file_data === 'string') {
    const inline = dataUrl(part.file.file_data);
    if (inline !== null) return { inlineData: inline };
  }
  if (part.type === 'input_audio' && isRecord(part.input_audio) && typeof part.input_audio.data === 'string') {
    const format = typeof part.input_audio.format === 'string' ? part.input_audio.format : 'wav';
    return { inlineData: { mimeType: `audio/${format}`, data: part.input_audio.data } };
  }
  return null;
}

function contentParts(content: MessageContent | null | undefined): Part[] {
  if (content === null || content === undefined) return [];
  if (typeof content === 'string') return content === '' ? [] : [{ text: content }];
  const out: Part[] = [];
  for (const part of content) {
    const p = contentPart(part);
    if (p !== null) out.push(p);
  }
  return out;
}

function parseObject(text: string): JsonRecord | null {
  try {
    const value = JSON.parse(text) as unknown;
    return isRecord(value) ? value : null;
  } catch {
    return null;
  }
}

function pushMerged(out: Content[], role: Content['role'], parts: Part[]): void {
  if (parts.length === 0) return;
  const last = out[out.length - 1];
  if (last !== undefined && last.role === role) last.parts.push(...parts);
  else out.push({ role, parts });
}

/** Thought signatures an earlier answer carried, by the tool call (or `''`: the text) they belong to. */
function signatures(m: AssistantMessageInput): Map<string, string> {
  const out = new Map<string, string>();
  for (const d of m.reasoning_details ?? []) {
    if (d.type === 'reasoning.encrypted' && d.format === THOUGHT_SIGNATURE_FORMAT && typeof d.data === 'string')
      out.set(typeof d.id === 'string' ? d.id : '', d.data);
  }
  return out;
}

function modelParts(m: AssistantMessageInput): Part[] {
  const signed = signatures(m);
  const parts = contentParts(m.content);
  const textSignature = signed.get('');
  if (textSignature !== undefined && parts[0] !== undefined) parts[0].thoughtSignature = textSignature;
  for (const call of m.tool_calls ?? []) {
    const part: Part = {
      functionCall: { id: call.id, name: call.function.name, args: parseObject(call.function.arguments) ?? {} },
    };
    const signature = signed.get(call.id);
    if (signature !== undefined) part.thoughtSignature = signature;
    parts.push(part);
  }
  return parts;
}

function contentsField(req: CanonicalChatRequest): Content[] {
  const out: Content[] = [];
  const toolNames = new Map<string, string>();
  for (const m of req.messages) {
    if (m.role === 'user') pushMerged(out, 'user', contentParts(m.content));
    else if (m.role === 'assistant') {
      for (const call of m.tool_calls ?? []) toolNames.set(call.id, call.function.name);
      pushMerged(out, 'model', modelParts(m));
    } else if (m.role === 'tool') {
      const text =
        typeof m.content === 'string'
          ? m.content
          : contentParts(m.content)
              .map((p) => p.text)
              .join('');
      // Gemini names the function a response answers; the chat names only the call's id.
      const name = toolNames.get(m.tool_call_id) ?? m.tool_call_id;
      const response = parseObject(text) ?? { result: text };
      pushMerged(out, 'user', [{ functionResponse: { id: m.tool_call_id, name, response } }]);
    }
  }
  return out;
}

function systemInstruction(req: CanonicalChatRequest): JsonRecord | undefined {
  const parts: Part[] = [];
  for (const m of req.messages) {
    if (m.role === 'system' || m.role === 'developer') parts.push(...contentParts(m.content));
  }
  return parts.length === 0 ? undefined : { parts };
}

function toolConfig(choice: ToolChoice | undefined): JsonRecord | undefined {
  if (choice === 'auto') return { functionCallingConfig: { mode: 'AUTO' } };
  if (choice === 'required') return { functionCallingConfig: { mode: 'ANY' } };
  if (choice === 'none') return { functionCallingConfig: { mode: 'NONE' } };
  if (isRecord(choice) && choice.type === 'function' && isRecord(choice.function)) {
    const name = choice.function.name;
    if (typeof name === 'string') return { functionCallingConfig: { mode: 'ANY', allowedFunctionNames: [name] } };
  }
  return undefined;
}

/** Gemini's `thinkingConfig` from the chat's reasoning settings; undefined leaves the model's default. */
function thinkingConfig(
  reasoning: ReasoningConfig | undefined,
  effort: string | null | undefined,
  cap: number | null,
): JsonRecord | undefined {
  if (reasoning?.enabled === false || reasoning?.effort === 'none' || effort === 'none') return { thinkingBudget: 0 };
  const includeThoughts = reasoning?.exclude !== true;
  if (typeof reasoning?.max_tokens === 'number' && reasoning.max_tokens > 0)
    return { thinkingBudget: Math.floor(reasoning.max_tokens), includeThoughts };
  const e = reasoning?.effort ?? effort ?? null;
  if (e !== null) {
    const budget = Math.max(128, Math.floor((cap ?? DEFAULT_THINKING_CAP) * (EFFORT_RATIO[e] ?? 0.5)));
    return { thinkingBudget: budget, includeThoughts };
  }
  return reasoning?.enabled === true ? { thinkingBudget: -1, includeThoughts } : undefined;
}

function generationConfig(req: CanonicalChatRequest): JsonRecord {
  const config: JsonRecord = {};
  const cap = maxOutputTokens(req);
  if (cap !== null) config.maxOutputTokens = cap;
  if (typeof req.temperature === 'number') config.temperature = req.temperature;
  if (typeof req.top_p === 'number') config.topP = req.top_p;
  if (typeof req.top_k === 'number') config.topK = req.top_k;
  if (typeof req.presence_penalty === 'number') config.presencePenalty = req.presence_penalty;
  if (typeof req.frequency_penalty === 'number') config.frequencyPenalty = req.frequency_penalty;
  if (typeof req.seed === 'number') config.seed = req.seed;
  const stops = stopList(req);
  if (stops.length > 0) config.stopSequences = stops;
  const format = req.response_format;
  if (format?.type === 'json_object') config.responseMimeType = 'application/json';
  else if (format?.type === 'json_schema' && isRecord(format.json_schema)) {
    config.responseMimeType = 'application/json';
    if (isRecord(format.json_schema.schema)) config.responseJsonSchema = format.json_schema.schema;
  }
  const thinking = thinkingConfig(req.reasoning, req.reasoning_effort, cap);
  if (thinking !== undefined) config.thinkingConfig = thinking;
  return config;
}

/** The `generateContent` / `streamGenerateContent` body (the model is in the URL, not the body). */
export function generateContentBody(req: CanonicalChatRequest): JsonRecord {
  const body: JsonRecord = { contents: contentsField(req) };
  const system = systemInstruction(req);
  if (system !== undefined) body.systemInstruction = system;
  const declarations = (req.tools ?? []).filter(isFunctionTool).map((t) => {
    const d: JsonRecord = { name: t.function.name };
    if (t.function.description !== undefined) d.description = t.function.description;
    if (t.function.parameters !== undefined) d.parametersJsonSchema = t.function.parameters;
    return d;
  });
  if (declarations.length > 0) {
    body.tools = [{ functionDeclarations: declarations }];
    const config = toolConfig(req.tool_choice);
    if (config !== undefined) body.toolConfig = config;
  }
  const config = generationConfig(req);
  if (Object.keys(config).length > 0) body.generationConfig = config;
  return body;
}
