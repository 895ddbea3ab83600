import {
  contentText,
  isFunctionTool,
  maxOutputTokens,
  stopList,
  type CanonicalChatRequest,
  type ContentPart,
  type MessageContent,
  type ReasoningConfig,
  type ToolChoice,
} from '../../../canonical/index.js';
import { isRecord, type JsonRecord } from '../../../canonical/json.js';

/** Canonical (OpenAI-shaped) request → Anthropic Messages API body. */

export const DEFAULT_MAX_TOKENS = 4096;
const EFFORT_RATIO: Record<string, number> = { max: 0.95, xhigh: 0.9, high: 0.8, medium: 0.5, low: 0.2, minimal: 0.1 };

type Block = JsonRecord;
interface AnthropicMessage {
  role: 'user' | 'assistant';
  content: Block[];
}

export function dataUrl(url: string): { mediaType: string; data: string } | null {
  const m = /^data:([^;,]+);base64,(.*)$/s.exec(url);
  return m === null || m[1] === undefined || m[2] === undefined ? null : { mediaType: m[1], data: m[2] };
}

function partToBlock(part: ContentPart): Block | null {
  if (part.type === 'text') {
    const text = typeof part.text === 'string' ? part.text : '';
    if (text === '') return null;
    const block: Block = { type: 'text', text };
    if (isRecord(part.cache_control)) block.cache_control = part.cache_control;
    return block;
  }
  if (part.type === 'image_url' && isRecord(part.image_url) && typeof part.image_url.url === 'string') {
    const inline = dataUrl(part.image_url.url);
    return inline === null
      ? { type: 'image', source: { type: 'url', url: part.image_url.url } }
      : { type: 'image', source: { type: 'base64', media_type: inline.mediaType, data: inline.data } };
  }
  if (part.type === 'file' && isRecord(part.file) && typeof part.file.file_data === 'string') {
    const inline = dataUrl(part.file.file_data);
    if (inline !== null)
      return { type: 'document', source: { type: 'base64', media_type: inline.mediaType, data: inline.data } };
  }
  return null; // audio, video and unknown parts have no Messages API equivalent
}

function contentBlocks(content: MessageContent | null | undefined): Block[] {
  if (content === null || content === undefined) return [];
  if (typeof content === 'string') return content === '' ? [] : [{ type: 'text', text: content }];
  const out: Block[] = [];
  for (const part of content) {
    const block = partToBlock(part);
    if (block !== null) out.push(block);
  }
  return out;
}

export function parseArguments(args: string): JsonRecord {
  try {
    const value = JSON.parse(args) as unknown;
    return isRecord(value) ? value : {};
  } catch {
    return {};
  }
}

function pushMerged(out: AnthropicMessage[], role: 'user' | 'assistant', blocks: Block[]): void {
  if (blocks.length === 0) return;
  const last = out[out.length - 1];
  if (last !== undefined && last.role === role) last.content.push(...blocks);
  else out.push({ role, content: blocks });
}

function systemField(req: CanonicalChatRequest): string | Block[] | undefined {
  const blocks: Block[] = [];
  for (const m of req.messages) {
    if (m.role === 'system' || m.role === 'developer') blocks.push(...contentBlocks(m.content));
  }
  if (blocks.length === 0) return undefined;
  if (blocks.some((b) => b.cache_control !== undefined)) return blocks;
  return blocks.map((b) => (typeof b.text === 'string' ? b.text : '')).join('\n\n');
}

function messagesField(req: CanonicalChatRequest): AnthropicMessage[] {
  const out: AnthropicMessage[] = [];
  for (const m of req.messages) {
    if (m.role === 'user') pushMerged(out, 'user', contentBlocks(m.content));
    else if (m.role === 'tool') {
      const text = contentText(m.content);
      pushMerged(out, 'user', [{ type: 'tool_result', tool_use_id: m.tool_call_id, content: text }]);
    } else if (m.role === 'assistant') {
      const blocks: Block[] = [];
      for (const d of m.reasoning_details ?? []) {
        if (d.type === 'reasoning.text' && typeof d.text === 'string' && typeof d.signature === 'string') {
          blocks.push({ type: 'thinking', thinking: d.text, signature: d.signature });
        } else if (d.type === 'reasoning.encrypted' && typeof d.data === 'string') {
          blocks.push({ type: 'redacted_thinking', data: d.data });
        }
      }
      blocks.push(...contentBlocks(m.content));
      for (const call of m.tool_calls ?? []) {
        blocks.push({
          type: 'tool_use',
          id: call.id,
          name: call.function.name,
          input: parseArguments(call.function.arguments),
        });
      }
      pushMerged(out, 'assistant', blocks);
    }
  }
  return out;
}

function toolChoiceField(choice: ToolChoice | undefined, parallel: boolean | null | undefined): JsonRecord | undefined {
  let out: JsonRecord | undefined;
  if (choice === 'auto') out = { type: 'auto' };
  else if (choice === 'required') out = { type: 'any' };
  else if (choice === 'none') out = { type: 'none' };
  else if (
    isRecord(choice) &&
    choice.type === 'function' &&
    isRecord(choice.function) &&
    typeof choice.function.name === 'string'
  ) {
    out = { type: 'tool', name: choice.function.name };
  }
  if (parallel === false && out?.type !== 'none')
    out = { ...(out ?? { type: 'auto' }), disable_parallel_tool_use: true };
  return out;
}

export function thinkingBudget(
  reasoning: ReasoningConfig | undefined,
  effort: string | null | undefined,
  maxTokens: number,
): number | null {
  if (reasoning?.enabled === false) return null;
  if (typeof reasoning?.max_tokens === 'number' && reasoning.max_tokens > 0)
    return Math.max(1024, Math.floor(reasoning.max_tokens));
  const e = reasoning?.effort ?? effort ?? (reasoning?.enabled === true ? 'medium' : null);
  if (e === null || e === 'none') return null;
  const ratio = EFFORT_RATIO[e] ?? 0.5;
  return Math.max(1024, Math.min(32_000, Math.floor(maxTokens * ratio)));
}

/**
 * `defaultMaxTokens`: the `max_tokens` Anthropic requires when the client set none (the model's
 * catalog output limit; the constant only when the catalog has none).
 */
export function messagesBody(
  req: CanonicalChatRequest,
  stream: boolean,
  defaultMaxTokens: number | null = null,
): JsonRecord {
  let maxTokens = maxOutputTokens(req) ?? defaultMaxTokens ?? DEFAULT_MAX_TOKENS;
  const body: JsonRecord = { model: req.model, messages: messagesField(req) };
  const system = systemField(req);
  if (system !== undefined) body.system = system;
  const budget = thinkingBudget(req.reasoning, req.reasoning_effort, maxTokens);
  if (budget !== null) {
    if (maxTokens <= budget) maxTokens = budget + DEFAULT_MAX_TOKENS;
    body.thinking = { type: 'enabled', budget_tokens: budget };
  } else {
    if (typeof req.temperature === 'number') body.temperature = Math.min(1, Math.max(0, req.temperature));
    if (typeof req.top_k === 'number') body.top_k = req.top_k;
  }
  body.max_tokens = maxTokens;
  if (typeof req.top_p === 'number') body.top_p = req.top_p;
  const stops = stopList(req);
  if (stops.length > 0) body.stop_sequences = stops;
  if (typeof req.user === 'string' && req.user !== '') body.metadata = { user_id: req.user };
  const tools = (req.tools ?? []).filter(isFunctionTool).map((t) => {
    const tool: JsonRecord = {
      name: t.function.name,
      input_schema: t.function.parameters ?? { type: 'object', properties: {} },
    };
    if (t.function.description !== undefined) tool.description = t.function.description;
    if (t.cache_control !== undefined) tool.cache_control = t.cache_control;
    return tool;
  });
  if (tools.length > 0) {
    body.tools = tools;
    const choice = toolChoiceField(req.tool_choice, req.parallel_tool_calls);
    if (choice !== undefined) body.tool_choice = choice;
  }
  if (stream) body.stream = true;
  return body;
}
