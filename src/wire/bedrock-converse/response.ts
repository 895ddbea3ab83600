import {
  makeUsage,
  type CanonicalChatResponse,
  type CanonicalUsage,
  type ReasoningDetail,
  type ToolCall,
} from '../../canonical/index.js';
import { int, isRecord, nowSeconds, str } from '../../canonical/json.js';
import { assistantMessage, canonicalUsage, REASONING_FORMAT } from '../anthropic-messages/outbound/response.js';

/** Bedrock Converse answer → canonical. */

/** Claude's reasoning on Bedrock is Claude's own (its signature round-trips to any Claude upstream). */
export { REASONING_FORMAT };

const STOP_REASONS: Record<string, string> = {
  end_turn: 'stop',
  stop_sequence: 'stop',
  max_tokens: 'length',
  model_context_window_exceeded: 'length',
  tool_use: 'tool_calls',
  content_filtered: 'content_filter',
  guardrail_intervened: 'content_filter',
};

export function converseFinish(stopReason: unknown): string | null {
  if (typeof stopReason !== 'string') return null;
  return STOP_REASONS[stopReason] ?? 'stop';
}

/**
 * Converse usage → canonical. Bedrock counts cache reads and writes apart from `inputTokens`, as
 * Anthropic does; canonical `prompt_tokens` includes them, with the cached share in the details.
 */
export function converseUsage(value: unknown): CanonicalUsage | null {
  if (!isRecord(value)) return null;
  return canonicalUsage({
    input: int(value.inputTokens) ?? 0,
    output: int(value.outputTokens) ?? 0,
    cacheRead: int(value.cacheReadInputTokens) ?? 0,
    cacheWrite: int(value.cacheWriteInputTokens) ?? 0,
  });
}

/** One `reasoningContent` block (answer) → its reasoning detail, or null. */
export function reasoningDetail(value: unknown, index: number): ReasoningDetail | null {
  if (!isRecord(value)) return null;
  if (isRecord(value.reasoningText) && typeof value.reasoningText.text === 'string') {
    const d: ReasoningDetail = {
      type: 'reasoning.text',
      text: value.reasoningText.text,
      format: REASONING_FORMAT,
      index,
    };
    if (typeof value.reasoningText.signature === 'string') d.signature = value.reasoningText.signature;
    return d;
  }
  if (typeof value.redactedContent === 'string')
    return { type: 'reasoning.encrypted', data: value.redactedContent, format: REASONING_FORMAT, index };
  return null;
}

/** A Converse answer as a canonical chat completion; null when the body has no output message. */
export function converseResponse(body: unknown, fallback: { model: string; id: string }): CanonicalChatResponse | null {
  if (!isRecord(body) || !isRecord(body.output) || !isRecord(body.output.message)) return null;
  const content = body.output.message.content;
  if (!Array.isArray(content)) return null;
  let text = '';
  let reasoning = '';
  const details: ReasoningDetail[] = [];
  const calls: ToolCall[] = [];
  content.forEach((block: unknown, index) => {
    if (!isRecord(block)) return;
    if (typeof block.text === 'string') text += block.text;
    else if (block.reasoningContent !== undefined) {
      const d = reasoningDetail(block.reasoningContent, index);
      if (d === null) return;
      if (d.text !== undefined) reasoning += d.text;
      details.push(d);
    } else if (isRecord(block.toolUse)) {
      calls.push({
        id: str(block.toolUse.toolUseId) ?? `tooluse_${calls.length}`,
        type: 'function',
        function: { name: str(block.toolUse.name) ?? '', arguments: JSON.stringify(block.toolUse.input ?? {}) },
      });
    }
  });
  const message = assistantMessage({ text, reasoning, details, calls });
  const native = str(body.stopReason) ?? null;
  return {
    id: fallback.id,
    object: 'chat.completion',
    created: nowSeconds(),
    model: fallback.model,
    choices: [{ index: 0, message, finish_reason: converseFinish(native), native_finish_reason: native }],
    system_fingerprint: null,
    usage: converseUsage(body.usage) ?? makeUsage(0, 0),
  };
}
