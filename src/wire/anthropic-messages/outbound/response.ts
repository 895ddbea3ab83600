import type {
  CanonicalAssistantMessage,
  CanonicalChatResponse,
  CanonicalUsage,
  ReasoningDetail,
  ToolCall,
} from '../../../canonical/index.js';
import { int, isRecord, nowSeconds, str } from '../../../canonical/json.js';

/** Anthropic Messages API response → canonical. */

export const REASONING_FORMAT = 'anthropic-claude-v1';

const STOP_REASONS: Record<string, string> = {
  end_turn: 'stop',
  stop_sequence: 'stop',
  pause_turn: 'stop',
  max_tokens: 'length',
  model_context_window_exceeded: 'length',
  tool_use: 'tool_calls',
  refusal: 'content_filter',
};

export function finishReason(stopReason: unknown): string | null {
  if (typeof stopReason !== 'string') return null;
  return STOP_REASONS[stopReason] ?? 'stop';
}

export interface AnthropicUsageCounts {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
}

export function readUsage(value: unknown, into: AnthropicUsageCounts): AnthropicUsageCounts {
  if (!isRecord(value)) return into;
  return {
    input: int(value.input_tokens) ?? into.input,
    output: int(value.output_tokens) ?? into.output,
    cacheRead: int(value.cache_read_input_tokens) ?? into.cacheRead,
    cacheWrite: int(value.cache_creation_input_tokens) ?? into.cacheWrite,
  };
}

/** Anthropic's `input_tokens` excludes cached tokens; canonical `prompt_tokens` includes them. */
export function canonicalUsage(u: AnthropicUsageCounts): CanonicalUsage {
  const prompt = u.input + u.cacheRead + u.cacheWrite;
  const usage: CanonicalUsage = { prompt_tokens: prompt, completion_tokens: u.output, total_tokens: prompt + u.output };
  if (u.cacheRead > 0 || u.cacheWrite > 0) {
    usage.prompt_tokens_details = { cached_tokens: u.cacheRead, cache_write_tokens: u.cacheWrite };
  }
  return usage;
}

export const ZERO_USAGE: AnthropicUsageCounts = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 };

/** The assistant message of an answer's parts (no content when it only calls tools). */
export function assistantMessage(parts: {
  text: string;
  reasoning: string;
  details: ReasoningDetail[];
  calls: ToolCall[];
}): CanonicalAssistantMessage {
  const { text, reasoning, details, calls } = parts;
  const message: CanonicalAssistantMessage = {
    role: 'assistant',
    content: text === '' && calls.length > 0 ? null : text,
    refusal: null,
  };
  if (reasoning !== '') message.reasoning = reasoning;
  if (details.length > 0) message.reasoning_details = details;
  if (calls.length > 0) message.tool_calls = calls;
  return message;
}

export function messagesResponse(body: unknown, fallback: { model: string; id: string }): CanonicalChatResponse | null {
  if (!isRecord(body) || !Array.isArray(body.content)) return null;
  let text = '';
  let reasoning = '';
  const details: ReasoningDetail[] = [];
  const calls: ToolCall[] = [];
  body.content.forEach((block: unknown, index) => {
    if (!isRecord(block)) return;
    if (block.type === 'text' && typeof block.text === 'string') text += block.text;
    else if (block.type === 'thinking' && typeof block.thinking === 'string') {
      reasoning += block.thinking;
      const d: ReasoningDetail = { type: 'reasoning.text', text: block.thinking, format: REASONING_FORMAT, index };
      if (typeof block.signature === 'string') d.signature = block.signature;
      details.push(d);
    } else if (block.type === 'redacted_thinking' && typeof block.data === 'string') {
      details.push({ type: 'reasoning.encrypted', data: block.data, format: REASONING_FORMAT, index });
    } else if (block.type === 'tool_use') {
      calls.push({
        id: str(block.id) ?? `toolu_${calls.length}`,
        type: 'function',
        function: { name: str(block.name) ?? '', arguments: JSON.stringify(block.input ?? {}) },
      });
    }
  });
  const message = assistantMessage({ text, reasoning, details, calls });
  const native = str(body.stop_reason) ?? null;
  return {
    id: str(body.id) ?? fallback.id,
    object: 'chat.completion',
    created: nowSeconds(),
    model: str(body.model) ?? fallback.model,
    choices: [{ index: 0, message, finish_reason: finishReason(native), native_finish_reason: native }],
    system_fingerprint: null,
    usage: canonicalUsage(readUsage(body.usage, ZERO_USAGE)),
  };
}
