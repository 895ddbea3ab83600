import { toCanonicalChatRequest, type MessagesRequestBody, type PresetFields } from '../../../canonical/index.js';
import { unionTools } from '../../../canonical/union-tools.js';
import { messagesBody } from '../outbound/request.js';
import { isRecord, type JsonRecord } from '../../../canonical/json.js';

/** Switchyard's routing fields: the same on chat and Messages, copied as they are. */
const ROUTING_FIELDS = ['model', 'models', 'provider'] as const;

/**
 * Fields of a preset's chat configuration that the Messages API can say, in Messages form:
 * sampling, stop sequences, extended thinking and the tool choice. Chat-only fields (a response
 * format, penalties, a seed …) have no Messages equivalent and do not apply on this surface.
 */
const TRANSLATED_FIELDS = ['temperature', 'top_p', 'top_k', 'stop_sequences', 'thinking', 'tool_choice'] as const;

/** Anthropic tools are one per name. */
const toolName = (tool: unknown): string => (isRecord(tool) && typeof tool.name === 'string' ? tool.name : '');

function withSystemPrompt(system: MessagesRequestBody['system'], prompt: string): MessagesRequestBody['system'] {
  if (prompt === '') return system;
  if (system === undefined) return prompt;
  const first = { type: 'text', text: prompt };
  return typeof system === 'string' ? [first, { type: 'text', text: system }] : [first, ...system];
}

/**
 * A preset applied to an Anthropic Messages body: the preset's chat configuration goes through
 * the same chat → Messages translation an Anthropic upstream gets, and fills what the body
 * leaves out; its tools join the body's (a body tool of the same name wins); its system prompt
 * comes before the body's system. `max_tokens` is the body's own (the Messages API requires
 * it). With extended thinking on, a sampling field the preset brought is dropped (Anthropic
 * refuses temperature and top_k beside thinking), while the body's own are sent as they are.
 */
export function mergePresetIntoMessages(body: MessagesRequestBody, version: PresetFields): MessagesRequestBody {
  const config = version.config;
  const preset = messagesBody(toCanonicalChatRequest({ ...config, messages: [] }, ''), false);
  const out: JsonRecord = { ...body };
  for (const field of ROUTING_FIELDS) {
    if (out[field] === undefined && config[field] !== undefined) out[field] = structuredClone(config[field]);
  }
  const filled = new Set<string>();
  for (const field of TRANSLATED_FIELDS) {
    if (out[field] === undefined && preset[field] !== undefined) {
      out[field] = structuredClone(preset[field]);
      filled.add(field);
    }
  }
  if (isRecord(out.thinking) && out.thinking.type === 'enabled') {
    for (const field of ['temperature', 'top_k']) if (filled.has(field)) delete out[field];
  }
  if (Array.isArray(preset.tools)) out.tools = unionTools(preset.tools, body.tools ?? [], toolName);
  const system = withSystemPrompt(body.system, version.systemPrompt);
  if (system !== undefined) out.system = system;
  return out as MessagesRequestBody;
}
