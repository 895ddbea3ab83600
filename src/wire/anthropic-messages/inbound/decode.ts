import type {
  CacheControl,
  CanonicalChatRequest,
  FunctionTool,
  ChatMessage,
  ContentPart,
  ReasoningDetail,
  TextPart,
  Tool,
  ToolCall,
  ToolChoice,
} from '../../../canonical/index.js';
import { errors } from '../../../errors/index.js';
import { REASONING_FORMAT } from '../outbound/response.js';
import { isRecord, type JsonRecord } from '../../../canonical/json.js';
import type { MessagesBlock, MessagesRequestBody } from '../../../canonical/index.js';
import { outputEffort, plainUserId, systemEntry, TRANSLATED_BLOCK_TYPES } from './decode-extras.js';

/** A content block: its `type` checked by the schema, every other field still untrusted. */
type Block = JsonRecord & { type: string };

/**
 * Anthropic Messages request → the canonical (OpenAI chat-shaped) request, for upstreams that
 * do not speak Messages. The inverse of the Anthropic adapter's request mapping: system blocks
 * become one system message, `tool_result` blocks become `tool` messages placed before the rest
 * of their user turn, `tool_use` blocks become tool calls, thinking blocks reasoning details.
 * `model` is the name the client sent; routing replaces it with the upstream's.
 */
export type DecodedMessagesRequest = Omit<CanonicalChatRequest, 'extra'>;

function isCacheControl(value: unknown): value is CacheControl {
  return isRecord(value) && value.type === 'ephemeral';
}

function invalid(path: string, message: string): Error {
  return errors.invalidRequest(`${path}: ${message}`, { field: path });
}

function requireString(block: JsonRecord, key: string, path: string): string {
  const value = block[key];
  if (typeof value !== 'string') throw invalid(`${path}.${key}`, 'must be a string');
  return value;
}

function textPart(block: JsonRecord, path: string): TextPart {
  const part: TextPart = { type: 'text', text: requireString(block, 'text', path) };
  if (isCacheControl(block.cache_control)) part.cache_control = block.cache_control;
  return part;
}

/** An `image` (or `document`) block's source → a URL: a data URL for base64, the URL itself otherwise. */
function sourceUrl(block: JsonRecord, path: string): string {
  const source = block.source;
  if (!isRecord(source)) throw invalid(`${path}.source`, 'must be an object');
  if (source.type === 'base64') {
    const media = requireString(source, 'media_type', `${path}.source`);
    return `data:${media};base64,${requireString(source, 'data', `${path}.source`)}`;
  }
  if (source.type === 'url') return requireString(source, 'url', `${path}.source`);
  throw invalid(`${path}.source.type`, 'must be "base64" or "url"');
}

function userPart(block: JsonRecord, path: string): ContentPart {
  switch (block.type) {
    case 'text':
      return textPart(block, path);
    case 'image':
      return { type: 'image_url', image_url: { url: sourceUrl(block, path) } };
    case 'document':
      return { type: 'file', file: { file_data: sourceUrl(block, path) } };
    default:
      throw invalid(`${path}.type`, `"${String(block.type)}" is not a user content block Switchyard can translate`);
  }
}

/** A tool result's content: a string, or text (and image) blocks. */
function toolResultContent(block: JsonRecord, path: string): string | ContentPart[] {
  const content = block.content;
  if (content === undefined) return '';
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) throw invalid(`${path}.content`, 'must be a string or a list of blocks');
  return content.map((item: unknown, i) => {
    if (!isRecord(item)) throw invalid(`${path}.content[${i}]`, 'must be an object');
    return userPart(item, `${path}.content[${i}]`);
  });
}

function decodeUser(content: string | MessagesBlock[], path: string, out: ChatMessage[]): void {
  if (typeof content === 'string') {
    out.push({ role: 'user', content });
    return;
  }
  const parts: ContentPart[] = [];
  content.forEach((raw, i) => {
    const block: Block = raw;
    const at = `${path}.content[${i}]`;
    if (!TRANSLATED_BLOCK_TYPES.has(block.type)) return; // Anthropic-only (server tools…): no meaning in a chat
    if (block.type === 'tool_result') {
      const result = toolResultContent(block, at);
      const error = block.is_error === true;
      out.push({
        role: 'tool',
        tool_call_id: requireString(block, 'tool_use_id', at),
        content: error && typeof result === 'string' ? `Error: ${result}` : result,
      });
    } else parts.push(userPart(block, at));
  });
  if (parts.length > 0) out.push({ role: 'user', content: parts });
}

function decodeAssistant(content: string | MessagesBlock[], path: string, out: ChatMessage[]): void {
  if (typeof content === 'string') {
    out.push({ role: 'assistant', content });
    return;
  }
  let text = '';
  let reasoning = '';
  const details: ReasoningDetail[] = [];
  const calls: ToolCall[] = [];
  content.forEach((raw, i) => {
    const block: Block = raw;
    const at = `${path}.content[${i}]`;
    if (!TRANSLATED_BLOCK_TYPES.has(block.type)) return;
    if (block.type === 'text') text += requireString(block, 'text', at);
    else if (block.type === 'tool_use') {
      const input = block.input ?? {};
      calls.push({
        id: requireString(block, 'id', at),
        type: 'function',
        function: { name: requireString(block, 'name', at), arguments: JSON.stringify(input) },
      });
    } else if (block.type === 'thinking') {
      const thinking = requireString(block, 'thinking', at);
      reasoning += thinking;
      const detail: ReasoningDetail = { type: 'reasoning.text', text: thinking, format: REASONING_FORMAT, index: i };
      if (typeof block.signature === 'string') detail.signature = block.signature;
      details.push(detail);
    } else if (block.type === 'redacted_thinking') {
      details.push({ type: 'reasoning.encrypted', data: requireString(block, 'data', at), format: REASONING_FORMAT });
    } else throw invalid(`${at}.type`, `"${block.type}" is not an assistant content block Switchyard can translate`);
  });
  const message: ChatMessage = { role: 'assistant', content: text === '' && calls.length > 0 ? null : text };
  if (reasoning !== '') message.reasoning = reasoning;
  if (details.length > 0) message.reasoning_details = details;
  if (calls.length > 0) message.tool_calls = calls;
  out.push(message);
}

function decodeSystem(system: MessagesRequestBody['system']): ChatMessage[] {
  if (system === undefined) return [];
  if (typeof system === 'string') return system === '' ? [] : [{ role: 'system', content: system }];
  const parts = system.map((block, i) => {
    if (block.type !== 'text') throw invalid(`system[${i}].type`, 'must be "text"');
    return textPart(block, `system[${i}]`);
  });
  if (parts.length === 0) return [];
  // Plain text unless a block carries cache_control (kept for upstreams that honour it).
  if (parts.some((p) => p.cache_control !== undefined)) return [{ role: 'system', content: parts }];
  return [{ role: 'system', content: parts.map((p) => p.text).join('\n\n') }];
}

function decodeTools(tools: MessagesRequestBody['tools']): Tool[] | undefined {
  if (tools === undefined) return undefined;
  return tools.map((tool) => {
    // A custom tool has no type or `custom`; server tools (web_search_…, bash_…) keep their shape.
    if (tool.type !== undefined && tool.type !== 'custom') return { ...tool, type: tool.type };
    const fields: JsonRecord = tool;
    const out: FunctionTool = {
      type: 'function',
      function: { name: tool.name, parameters: tool.input_schema ?? { type: 'object', properties: {} } },
    };
    if (tool.description !== undefined) out.function.description = tool.description;
    if (isCacheControl(fields.cache_control)) out.cache_control = fields.cache_control;
    return out;
  });
}

function decodeToolChoice(choice: MessagesRequestBody['tool_choice']): ToolChoice | undefined {
  if (choice === undefined) return undefined;
  switch (choice.type) {
    case 'auto':
      return 'auto';
    case 'any':
      return 'required';
    case 'none':
      return 'none';
    case 'tool':
      if (choice.name === undefined) throw invalid('tool_choice.name', 'is required when type is "tool"');
      return { type: 'function', function: { name: choice.name } };
  }
}

function decodeThinking(thinking: MessagesRequestBody['thinking']): CanonicalChatRequest['reasoning'] {
  if (thinking === undefined) return undefined;
  if (thinking.type === 'disabled') return { enabled: false };
  if (thinking.type === 'enabled') {
    if (thinking.budget_tokens === undefined) throw invalid('thinking.budget_tokens', 'is required');
    return { max_tokens: thinking.budget_tokens };
  }
  return { enabled: true }; // adaptive and future kinds: let the upstream pick the budget
}

export function decodeMessagesRequest(body: MessagesRequestBody): DecodedMessagesRequest {
  const messages: ChatMessage[] = decodeSystem(body.system);
  body.messages.forEach((m, i) => {
    if (m.role === 'system') {
      const entry = systemEntry(m.content);
      if (entry !== null) messages.push(entry);
    } else if (m.role === 'user') decodeUser(m.content, `messages[${i}]`, messages);
    else decodeAssistant(m.content, `messages[${i}]`, messages);
  });
  const out: DecodedMessagesRequest = { model: body.model, messages, max_tokens: body.max_tokens };
  if (body.stream !== undefined) out.stream = body.stream;
  if (body.temperature !== undefined) out.temperature = body.temperature;
  if (body.top_p !== undefined) out.top_p = body.top_p;
  if (body.top_k !== undefined) out.top_k = body.top_k;
  if (body.stop_sequences !== undefined && body.stop_sequences.length > 0) out.stop = body.stop_sequences;
  const user = plainUserId(body.metadata?.user_id);
  if (user !== undefined) out.user = user;
  const tools = decodeTools(body.tools);
  if (tools !== undefined && tools.length > 0) out.tools = tools;
  const choice = decodeToolChoice(body.tool_choice);
  if (choice !== undefined) out.tool_choice = choice;
  if (body.tool_choice?.disable_parallel_tool_use === true) out.parallel_tool_calls = false;
  const reasoning = decodeThinking(body.thinking);
  if (reasoning !== undefined) out.reasoning = reasoning;
  const effort = outputEffort(body);
  if (effort !== undefined) out.reasoning_effort = effort;
  return out;
}
