import {
  contentText,
  isFunctionTool,
  maxOutputTokens,
  stopList,
  type CanonicalChatRequest,
  type ContentPart,
  type MessageContent,
  type ToolChoice,
} from '../../canonical/index.js';
import { isRecord, type JsonRecord } from '../../canonical/json.js';
import { errors } from '../../errors/index.js';
import { UPSTREAM_KINDS } from '../index.js';
import { dataUrl, DEFAULT_MAX_TOKENS, parseArguments, thinkingBudget } from '../anthropic-messages/outbound/request.js';

/**
 * Canonical (OpenAI-shaped) request → a Bedrock Converse body (`POST /model/{id}/converse`).
 * Converse takes images and documents only as bytes (base64 in JSON), so a client's image must be
 * a data URL; a prompt-cache mark becomes a `cachePoint` block after the part it marks.
 */

type Block = JsonRecord;
interface ConverseMessage {
  role: 'user' | 'assistant';
  content: Block[];
}

const IMAGE_FORMATS: Record<string, string> = {
  'image/png': 'png',
  'image/jpeg': 'jpeg',
  'image/jpg': 'jpeg',
  'image/gif': 'gif',
  'image/webp': 'webp',
};
const DOCUMENT_FORMATS: Record<string, string> = {
  'application/pdf': 'pdf',
  'text/csv': 'csv',
  'text/plain': 'txt',
  'text/markdown': 'md',
  'text/html': 'html',
  'application/msword': 'doc',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': 'docx',
  'application/vnd.ms-excel': 'xls',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': 'xlsx',
};

/** Anthropic models on Bedrock (an id or inference profile naming `anthropic.`) take Claude's own fields. */
const ANTHROPIC_ON_BEDROCK = UPSTREAM_KINDS.bedrock.nativeMessages;

const CACHE_POINT: Block = { cachePoint: { type: 'default' } };

function imageBlock(url: string): Block {
  const inline = dataUrl(url);
  const format = inline === null ? undefined : IMAGE_FORMATS[inline.mediaType.toLowerCase()];
  if (inline === null || format === undefined)
    throw errors.invalidRequest('Bedrock takes images as base64 data URLs (png, jpeg, gif or webp), not links', {
      field: 'image_url',
    });
  return { image: { format, source: { bytes: inline.data } } };
}

function partBlocks(part: ContentPart, documents: { count: number }): Block[] {
  let block: Block | null = null;
  let cached = false;
  if (part.type === 'text') {
    const text = typeof part.text === 'string' ? part.text : '';
    if (text !== '') block = { text };
    cached = isRecord(part.cache_control);
  } else if (part.type === 'image_url' && isRecord(part.image_url) && typeof part.image_url.url === 'string') {
    block = imageBlock(part.image_url.url);
  } else if (part.type === 'file' && isRecord(part.file) && typeof part.file.file_data === 'string') {
    const inline = dataUrl(part.file.file_data);
    const format = inline === null ? undefined : DOCUMENT_FORMATS[inline.mediaType.toLowerCase()];
    if (inline !== null && format !== undefined) {
      documents.count += 1;
      block = { document: { format, name: `document-${documents.count}`, source: { bytes: inline.data } } };
    }
  }
  if (block === null) return []; // audio, video and unknown parts have no Converse equivalent
  return cached ? [block, CACHE_POINT] : [block];
}

function contentBlocks(content: MessageContent | null | undefined, documents: { count: number }): Block[] {
  if (content === null || content === undefined) return [];
  if (typeof content === 'string') return content === '' ? [] : [{ text: content }];
  return content.flatMap((part) => partBlocks(part, documents));
}

function pushMerged(out: ConverseMessage[], role: 'user' | 'assistant', blocks: Block[]): void {
  if (blocks.length === 0) return;
  const last = out[out.length - 1];
  if (last !== undefined && last.role === role) last.content.push(...blocks);
  else out.push({ role, content: blocks });
}

function assistantBlocks(m: Extract<CanonicalChatRequest['messages'][number], { role: 'assistant' }>): Block[] {
  const blocks: Block[] = [];
  for (const d of m.reasoning_details ?? []) {
    if (d.type === 'reasoning.text' && typeof d.text === 'string' && typeof d.signature === 'string') {
      blocks.push({ reasoningContent: { reasoningText: { text: d.text, signature: d.signature } } });
    } else if (d.type === 'reasoning.encrypted' && typeof d.data === 'string') {
      blocks.push({ reasoningContent: { redactedContent: d.data } });
    }
  }
  blocks.push(...contentBlocks(m.content, { count: 0 }));
  for (const call of m.tool_calls ?? []) {
    blocks.push({
      toolUse: { toolUseId: call.id, name: call.function.name, input: parseArguments(call.function.arguments) },
    });
  }
  return blocks;
}

function conversation(req: CanonicalChatRequest): { system: Block[]; messages: ConverseMessage[]; tools: boolean } {
  const system: Block[] = [];
  const messages: ConverseMessage[] = [];
  const documents = { count: 0 };
  let tools = false;
  for (const m of req.messages) {
    if (m.role === 'system' || m.role === 'developer') {
      system.push(...contentBlocks(m.content, documents).filter((b) => b.text !== undefined || b.cachePoint));
    } else if (m.role === 'user') pushMerged(messages, 'user', contentBlocks(m.content, documents));
    else if (m.role === 'tool') {
      tools = true;
      const text = contentText(m.content);
      pushMerged(messages, 'user', [
        { toolResult: { toolUseId: m.tool_call_id, content: [{ text: text === '' ? ' ' : text }] } },
      ]);
    } else if (m.role === 'assistant') {
      if ((m.tool_calls ?? []).length > 0) tools = true;
      pushMerged(messages, 'assistant', assistantBlocks(m));
    }
  }
  return { system, messages, tools };
}

function toolChoiceField(choice: ToolChoice | undefined): JsonRecord | undefined {
  if (choice === 'auto') return { auto: {} };
  if (choice === 'required') return { any: {} };
  if (isRecord(choice) && choice.type === 'function' && isRecord(choice.function)) {
    if (typeof choice.function.name === 'string') return { tool: { name: choice.function.name } };
  }
  return undefined;
}

function toolConfig(req: CanonicalChatRequest, historyHasTools: boolean): JsonRecord | undefined {
  const tools = (req.tools ?? []).filter(isFunctionTool).flatMap((t) => {
    const spec: JsonRecord = {
      name: t.function.name,
      inputSchema: { json: t.function.parameters ?? { type: 'object', properties: {} } },
    };
    if (t.function.description !== undefined) spec.description = t.function.description;
    return t.cache_control !== undefined ? [{ toolSpec: spec }, CACHE_POINT] : [{ toolSpec: spec }];
  });
  // Converse has no "none" choice: the tools stay only when the history needs their definitions.
  if (tools.length === 0 || (req.tool_choice === 'none' && !historyHasTools)) return undefined;
  const config: JsonRecord = { tools };
  const choice = req.tool_choice === 'none' ? undefined : toolChoiceField(req.tool_choice);
  if (choice !== undefined) config.toolChoice = choice;
  return config;
}

/**
 * The Converse body for `modelId`. `defaultMaxTokens`: the catalog's output limit, sent when the
 * client set none (Claude requires one; the constant only when the catalog has none either).
 */
export function converseBody(req: CanonicalChatRequest, modelId: string, defaultMaxTokens: number | null): JsonRecord {
  const { system, messages, tools } = conversation(req);
  const body: JsonRecord = { messages };
  if (system.length > 0) body.system = system;
  const anthropic = ANTHROPIC_ON_BEDROCK.test(modelId);
  let maxTokens = maxOutputTokens(req) ?? defaultMaxTokens ?? (anthropic ? DEFAULT_MAX_TOKENS : null);
  const inference: JsonRecord = {};
  const extra: JsonRecord = {};
  const budget = anthropic
    ? thinkingBudget(req.reasoning, req.reasoning_effort, maxTokens ?? DEFAULT_MAX_TOKENS)
    : null;
  if (budget !== null) {
    if (maxTokens === null || maxTokens <= budget) maxTokens = budget + DEFAULT_MAX_TOKENS;
    extra.thinking = { type: 'enabled', budget_tokens: budget };
  } else {
    if (typeof req.temperature === 'number')
      inference.temperature = anthropic ? Math.min(1, Math.max(0, req.temperature)) : req.temperature;
    if (typeof req.top_k === 'number' && anthropic) extra.top_k = req.top_k;
  }
  if (maxTokens !== null) inference.maxTokens = maxTokens;
  if (typeof req.top_p === 'number') inference.topP = req.top_p;
  const stops = stopList(req);
  if (stops.length > 0) inference.stopSequences = stops;
  if (Object.keys(inference).length > 0) body.inferenceConfig = inference;
  const config = toolConfig(req, tools);
  if (config !== undefined) body.toolConfig = config;
  if (Object.keys(extra).length > 0) body.additionalModelRequestFields = extra;
  return body;
}
