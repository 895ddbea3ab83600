import type { ChatMessage, ContentPart, TextPart, ToolCall } from '../../canonical/index.js';
import { errors } from '../../errors/index.js';
import { isReasoningOnly, reasoningTurn } from './reasoning-state.js';
import { decodeResponsesTools, DROPPED_TOOLS_NOTE, flatToolName, type ToolNames } from './tools.js';
import type { ResponseEcho, ResponsesTextFormat, ResponsesToolChoice } from './wire.js';

type Json = Record<string, unknown>;

/** A chat-completions body (the canonical request shape) decoded from a Responses body. */
export type ChatBodyFromResponses = Json & { messages: ChatMessage[] };

export interface DecodedResponsesRequest {
  body: ChatBodyFromResponses;
  echo: ResponseEcho;
  /** Flat chat tool names → the client's tools (namespaced, freeform), for the way back. */
  toolNames: ToolNames;
}

/** Gateway fields (OpenRouter's extensions) that mean the same on every surface: kept as they are. */
const GATEWAY_FIELDS = ['model', 'models', 'provider', 'preset', 'plugins', 'session_id', 'stream'] as const;
/** Fields of a Responses body with the same meaning on chat: forwarded as they are. */
const SAME_ON_CHAT = [
  'temperature',
  'top_p',
  'top_logprobs',
  'user',
  'service_tier',
  'prompt_cache_key',
  'safety_identifier',
];
/** Fields handled below, or accepted and dropped (nothing is stored; no background mode, no include). */
const HANDLED = new Set<string>([
  ...GATEWAY_FIELDS,
  ...SAME_ON_CHAT,
  'input',
  'instructions',
  'tools',
  'tool_choice',
  'parallel_tool_calls',
  'max_output_tokens',
  'text',
  'reasoning',
  'metadata',
  'store',
  'include',
  'truncation',
  'stream_options',
  'background',
  'previous_response_id',
  'conversation',
  'prompt',
  'context_management',
]);

const isRecord = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

function bad(field: string, message: string): never {
  throw errors.invalidRequest(`${field}: ${message}`, { field });
}

/**
 * Decodes a Responses API body (stateless) into the chat-completions body every other part of
 * the gateway understands, plus the request fields the response object repeats. Conversation
 * state is the client's: `previous_response_id` and `conversation` are refused with 400.
 */
export function decodeResponsesRequest(raw: Json, options: { inputRequired?: boolean } = {}): DecodedResponsesRequest {
  for (const field of ['previous_response_id', 'conversation'] as const) {
    if (raw[field] !== undefined && raw[field] !== null)
      bad(field, 'Switchyard does not store responses; send the whole conversation in `input`');
  }
  if (raw.background === true) bad('background', 'background responses are not supported');
  if (raw.prompt !== undefined && raw.prompt !== null) bad('prompt', 'stored prompt templates are not supported');
  const body: Json = {};
  for (const key of [...GATEWAY_FIELDS, ...SAME_ON_CHAT]) if (raw[key] !== undefined) body[key] = raw[key];
  for (const [key, value] of Object.entries(raw)) if (!HANDLED.has(key) && value !== undefined) body[key] = value;

  const instructions = optionalString(raw.instructions, 'instructions');
  const messages: ChatMessage[] = [];
  if (instructions !== null && instructions !== '') messages.push({ role: 'system', content: instructions });
  // A preset is saved from a body without input (only its configuration is kept).
  if (options.inputRequired !== false || (raw.input !== undefined && raw.input !== null))
    messages.push(...decodeInput(raw.input));
  body.messages = messages;

  const tools = decodeResponsesTools(raw.tools, raw.input);
  if (tools.chat.length > 0) body.tools = tools.chat;
  const toolChoice = decodeToolChoice(raw.tool_choice);
  if (raw.tool_choice !== undefined && raw.tool_choice !== null) body.tool_choice = toChatToolChoice(toolChoice);
  if (typeof raw.parallel_tool_calls === 'boolean') body.parallel_tool_calls = raw.parallel_tool_calls;
  const maxOutput = raw.max_output_tokens;
  if (maxOutput !== undefined && maxOutput !== null) {
    if (typeof maxOutput !== 'number' || !Number.isInteger(maxOutput) || maxOutput < 1)
      bad('max_output_tokens', 'must be an integer ≥ 1');
    body.max_completion_tokens = maxOutput;
  }
  const text = isRecord(raw.text) ? raw.text : {};
  const format = decodeFormat(text.format);
  if (format.type === 'json_object') body.response_format = { type: 'json_object' };
  else if (format.type === 'json_schema') {
    const jsonSchema: Json = { name: format.name, schema: format.schema };
    if (format.description !== undefined) jsonSchema.description = format.description;
    if (format.strict !== undefined) jsonSchema.strict = format.strict;
    body.response_format = { type: 'json_schema', json_schema: jsonSchema };
  }
  const verbosity = text.verbosity;
  if (verbosity === 'low' || verbosity === 'medium' || verbosity === 'high') body.verbosity = verbosity;
  const reasoning = decodeReasoning(raw.reasoning);
  if (reasoning.effort !== null) body.reasoning_effort = reasoning.effort;
  const asked = decodeMetadata(raw.metadata);
  if (asked !== null) body.metadata = asked;
  // Hosted tools the upstream does not serve are dropped; the response says which.
  const metadata =
    tools.dropped.length === 0 ? asked : { ...asked, [DROPPED_TOOLS_NOTE]: tools.dropped.join(',').slice(0, 512) };

  return {
    body: body as ChatBodyFromResponses,
    echo: {
      instructions,
      max_output_tokens: typeof maxOutput === 'number' ? maxOutput : null,
      metadata,
      parallel_tool_calls: raw.parallel_tool_calls !== false,
      temperature: typeof raw.temperature === 'number' ? raw.temperature : null,
      top_p: typeof raw.top_p === 'number' ? raw.top_p : null,
      tool_choice: toolChoice,
      tools: tools.echo,
      text: verbosity === undefined ? { format } : { format, verbosity: verbosity as 'low' | 'medium' | 'high' | null },
      reasoning: { effort: reasoning.effort === 'max' ? 'xhigh' : reasoning.effort, summary: reasoning.summary },
      ...(typeof raw.user === 'string' ? { user: raw.user } : {}),
    },
    toolNames: tools.names,
  };
}

function optionalString(value: unknown, field: string): string | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string') bad(field, 'must be a string');
  return value;
}

function decodeInput(input: unknown): ChatMessage[] {
  if (input === undefined || input === null) bad('input', 'is required');
  if (typeof input === 'string') return [{ role: 'user', content: input }];
  if (!Array.isArray(input)) bad('input', 'must be a string or an array of items');
  if (input.length === 0) bad('input', 'must not be empty');
  const out: ChatMessage[] = [];
  input.forEach((item: unknown, i) => decodeItem(item, `input[${i}]`, out));
  // Reasoning no text or call followed: nothing to send back.
  return out.filter((m) => !isReasoningOnly(m));
}

function decodeItem(item: unknown, field: string, out: ChatMessage[]): void {
  if (!isRecord(item)) bad(field, 'must be an object');
  const type = item.type ?? 'message';
  if (type === 'message') {
    const message = decodeMessage(item, field);
    const last = out[out.length - 1];
    if (message.role === 'assistant' && last !== undefined && isReasoningOnly(last)) last.content = message.content;
    else out.push(message);
  } else if (type === 'function_call' || type === 'custom_tool_call') {
    const namespace = typeof item.namespace === 'string' ? item.namespace : undefined;
    const call: ToolCall = {
      id: requiredString(item.call_id, `${field}.call_id`),
      type: 'function',
      function: {
        name: flatToolName(requiredString(item.name, `${field}.name`), namespace),
        arguments:
          type === 'custom_tool_call'
            ? JSON.stringify({ input: requiredString(item.input, `${field}.input`) })
            : requiredString(item.arguments, `${field}.arguments`),
      },
    };
    const last = out[out.length - 1];
    // Consecutive calls are one assistant turn (parallel tool calls), as chat expresses them.
    if (last?.role === 'assistant' && last.tool_calls !== undefined) last.tool_calls.push(call);
    else if (last?.role === 'assistant' && last.tool_calls === undefined) last.tool_calls = [call];
    else out.push({ role: 'assistant', content: null, tool_calls: [call] });
  } else if (type === 'additional_tools') {
    // Its tools join the request's tools (decodeResponsesTools).
  } else if (type === 'function_call_output' || type === 'custom_tool_call_output') {
    const output = item.output;
    const content =
      typeof output === 'string'
        ? output
        : Array.isArray(output)
          ? output.map((p: unknown, j) => decodePart(p, `${field}.output[${j}]`))
          : bad(`${field}.output`, 'must be a string or an array of content parts');
    out.push({ role: 'tool', tool_call_id: requiredString(item.call_id, `${field}.call_id`), content });
  } else if (type === 'reasoning') {
    // Signed reasoning Switchyard handed out starts the assistant turn again; other servers'
    // (and plain summaries) are model-internal state a chat upstream cannot take back.
    const turn = reasoningTurn(item.encrypted_content);
    if (turn !== null) out.push(turn);
  } else if (type === 'item_reference') {
    bad(`${field}.type`, 'item references need stored responses; send the item itself');
  } else {
    bad(
      `${field}.type`,
      `unsupported input item type ${JSON.stringify(type)} (message, function_call, function_call_output, custom_tool_call, custom_tool_call_output, reasoning, additional_tools)`,
    );
  }
}

function decodeMessage(item: Json, field: string): ChatMessage {
  const role = item.role;
  const content = item.content;
  if (role !== 'user' && role !== 'assistant' && role !== 'system' && role !== 'developer')
    bad(`${field}.role`, 'must be one of user, assistant, system, developer');
  if (typeof content === 'string') return { role, content };
  if (!Array.isArray(content)) bad(`${field}.content`, 'must be a string or an array of content parts');
  const parts = content.map((p: unknown, j) => decodePart(p, `${field}.content[${j}]`));
  if (role === 'user') return { role: 'user', content: parts };
  const texts: TextPart[] = [];
  for (const p of parts) {
    if (p.type !== 'text' || typeof p.text !== 'string') bad(`${field}.content`, `${role} messages take text only`);
    texts.push({ type: 'text', text: p.text });
  }
  if (role === 'assistant') return { role: 'assistant', content: texts.map((t) => t.text).join('') };
  return { role, content: texts };
}

function decodePart(part: unknown, field: string): ContentPart {
  if (!isRecord(part)) bad(field, 'must be an object');
  switch (part.type) {
    case 'input_text':
    case 'output_text':
      return { type: 'text', text: requiredString(part.text, `${field}.text`) };
    case 'refusal':
      return { type: 'text', text: requiredString(part.refusal, `${field}.refusal`) };
    case 'input_image': {
      if (typeof part.image_url !== 'string')
        bad(`${field}.image_url`, 'is required (uploaded files are not supported: send a URL or a data URL)');
      const detail = part.detail;
      return {
        type: 'image_url',
        image_url:
          detail === 'low' || detail === 'high' || detail === 'auto' || detail === 'original'
            ? { url: part.image_url, detail }
            : { url: part.image_url },
      };
    }
    case 'input_file': {
      if (typeof part.file_data !== 'string')
        bad(`${field}.file_data`, 'is required (uploaded files are not supported: send the file inline)');
      const file: { file_data: string; filename?: string } = { file_data: part.file_data };
      if (typeof part.filename === 'string') file.filename = part.filename;
      return { type: 'file', file };
    }
    default:
      return bad(
        `${field}.type`,
        `unsupported content type "${String(part.type)}" (input_text, input_image, input_file)`,
      );
  }
}

function requiredString(value: unknown, field: string): string {
  if (typeof value !== 'string') bad(field, 'must be a string');
  return value;
}

function decodeToolChoice(choice: unknown): ResponsesToolChoice {
  if (choice === undefined || choice === null) return 'auto';
  if (choice === 'none' || choice === 'auto' || choice === 'required') return choice;
  if (isRecord(choice) && (choice.type === 'function' || choice.type === 'custom') && typeof choice.name === 'string')
    return {
      type: 'function',
      name: flatToolName(choice.name, typeof choice.namespace === 'string' ? choice.namespace : undefined),
    };
  // Hosted tools and allowed-tool lists have no chat meaning: the model chooses.
  if (isRecord(choice) && typeof choice.type === 'string') return 'auto';
  return bad('tool_choice', 'must be none, auto, required or {"type":"function","name":…}');
}

function toChatToolChoice(choice: ResponsesToolChoice) {
  return typeof choice === 'string' ? choice : { type: 'function', function: { name: choice.name } };
}

function decodeFormat(format: unknown): ResponsesTextFormat {
  if (format === undefined || format === null) return { type: 'text' };
  if (!isRecord(format)) bad('text.format', 'must be an object');
  if (format.type === 'text' || format.type === 'json_object') return { type: format.type };
  if (format.type !== 'json_schema') bad('text.format.type', 'must be text, json_object or json_schema');
  if (!isRecord(format.schema)) bad('text.format.schema', 'must be a JSON Schema object');
  const out: ResponsesTextFormat = {
    type: 'json_schema',
    name: requiredString(format.name, 'text.format.name'),
    schema: format.schema,
  };
  if (typeof format.description === 'string') out.description = format.description;
  if (typeof format.strict === 'boolean') out.strict = format.strict;
  return out;
}

const EFFORTS = ['none', 'minimal', 'low', 'medium', 'high', 'xhigh', 'max'] as const;
const SUMMARIES = ['auto', 'concise', 'detailed'] as const;

function decodeReasoning(value: unknown): {
  effort: (typeof EFFORTS)[number] | null;
  summary: (typeof SUMMARIES)[number] | null;
} {
  if (value === undefined || value === null) return { effort: null, summary: null };
  if (!isRecord(value)) bad('reasoning', 'must be an object');
  const effort = EFFORTS.find((e) => e === value.effort) ?? null;
  if (effort === null && value.effort !== undefined && value.effort !== null)
    bad('reasoning.effort', `must be one of ${EFFORTS.join(', ')}`);
  const summary = SUMMARIES.find((e) => e === value.summary) ?? null;
  if (summary === null && value.summary !== undefined && value.summary !== null)
    bad('reasoning.summary', `must be one of ${SUMMARIES.join(', ')}`);
  return { effort, summary };
}

function decodeMetadata(metadata: unknown): Record<string, string> | null {
  if (metadata === undefined || metadata === null) return null;
  if (!isRecord(metadata)) bad('metadata', 'must be an object of strings');
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(metadata)) {
    if (typeof value !== 'string') bad(`metadata.${key}`, 'must be a string');
    out[key] = value;
  }
  return out;
}
