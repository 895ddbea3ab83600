import { estimatedUsage, type CanonicalChatResponse, type CanonicalUsage } from '../../../canonical/index.js';
import { int, isRecord, nowSeconds, str, type JsonRecord } from '../../../canonical/json.js';

/**
 * What the gateway reads of a native Responses answer (the object itself is written to the
 * client as the upstream sent it, relabelled): its finish reason, its usage.
 */

/** Responses usage → canonical counts (input tokens include the cached ones on both sides). */
export function responsesUsage(value: unknown): CanonicalUsage | null {
  if (!isRecord(value)) return null;
  const prompt = int(value.input_tokens) ?? 0;
  const completion = int(value.output_tokens) ?? 0;
  const usage: CanonicalUsage = {
    prompt_tokens: prompt,
    completion_tokens: completion,
    total_tokens: int(value.total_tokens) ?? prompt + completion,
  };
  const cached = isRecord(value.input_tokens_details) ? int(value.input_tokens_details.cached_tokens) : undefined;
  if (cached !== undefined) usage.prompt_tokens_details = { cached_tokens: cached };
  const reasoning = isRecord(value.output_tokens_details)
    ? int(value.output_tokens_details.reasoning_tokens)
    : undefined;
  if (reasoning !== undefined) usage.completion_tokens_details = { reasoning_tokens: reasoning };
  return usage;
}

const INCOMPLETE: Record<string, string> = { max_output_tokens: 'length', content_filter: 'content_filter' };

/** The canonical finish reason of a response object: its status, why it is incomplete, its tool calls. */
export function responseFinish(response: JsonRecord): string | null {
  const status = str(response.status);
  if (status === 'failed' || status === 'cancelled') return 'error';
  if (status === 'incomplete') {
    const reason = isRecord(response.incomplete_details) ? str(response.incomplete_details.reason) : undefined;
    return INCOMPLETE[reason ?? ''] ?? 'length';
  }
  if (status !== 'completed') return null;
  const output = Array.isArray(response.output) ? response.output : [];
  const called = output.some((item) => isRecord(item) && /_call$/.test(str(item.type) ?? ''));
  return called ? 'tool_calls' : 'stop';
}

/** The text of a response's output (messages, tool calls' arguments and input), for an estimate. */
function outputText(output: unknown[]): string {
  let text = '';
  for (const item of output) {
    if (!isRecord(item)) continue;
    text += str(item.arguments) ?? str(item.input) ?? '';
    if (Array.isArray(item.content))
      for (const part of item.content) if (isRecord(part)) text += str(part.text) ?? str(part.refusal) ?? '';
  }
  return text;
}

/**
 * A non-streamed native Responses answer, read for the gateway; null when it is not a response
 * object. `fallback.prompt` is called only when the body has no usage (then counted by us).
 */
export function nativeResponse(
  body: unknown,
  fallback: { id: string; model: string; prompt: () => string },
): CanonicalChatResponse | null {
  if (!isRecord(body) || !Array.isArray(body.output)) return null;
  return {
    id: str(body.id) ?? fallback.id,
    object: 'chat.completion',
    created: int(body.created_at) ?? nowSeconds(),
    model: str(body.model) ?? fallback.model,
    choices: [
      {
        index: 0,
        message: { role: 'assistant', content: null, refusal: null },
        finish_reason: responseFinish(body),
        native_finish_reason: str(body.status) ?? null,
      },
    ],
    system_fingerprint: null,
    usage: responsesUsage(body.usage) ?? estimatedUsage(fallback.prompt(), outputText(body.output)),
    native: { dialect: 'openai-responses', body },
  };
}
