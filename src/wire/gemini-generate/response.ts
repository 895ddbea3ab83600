import {
  makeUsage,
  type CanonicalAssistantMessage,
  type CanonicalChatResponse,
  type CanonicalChoice,
} from '../../canonical/index.js';
import { int, isRecord, nowSeconds, str } from '../../canonical/json.js';
import { finishReason, geminiUsage, promptBlock, readParts } from './parts.js';

/** A whole `generateContent` answer → canonical; null when the body is not one. */
export function generateContentResponse(
  body: unknown,
  fallback: { model: string; id: string },
): CanonicalChatResponse | null {
  if (!isRecord(body)) return null;
  const candidates = Array.isArray(body.candidates) ? body.candidates.filter(isRecord) : [];
  const blocked = promptBlock(body);
  if (candidates.length === 0 && blocked === null) return null;
  const choices: CanonicalChoice[] = candidates.map((candidate, i) => {
    const read = readParts(candidate);
    const message: CanonicalAssistantMessage = {
      role: 'assistant',
      content: read.text === '' && read.calls.length > 0 ? null : read.text,
      refusal: null,
    };
    if (read.reasoning !== '') message.reasoning = read.reasoning;
    if (read.details.length > 0) message.reasoning_details = read.details;
    if (read.calls.length > 0) message.tool_calls = read.calls;
    const native = str(candidate.finishReason) ?? 'STOP';
    return {
      index: int(candidate.index) ?? i,
      message,
      finish_reason: finishReason(native, read.calls.length > 0),
      native_finish_reason: native,
    };
  });
  if (choices.length === 0) {
    // The prompt itself was refused by a filter: an empty answer with a content-filter finish.
    choices.push({
      index: 0,
      message: { role: 'assistant', content: '', refusal: null },
      finish_reason: 'content_filter',
      native_finish_reason: blocked,
    });
  }
  return {
    id: str(body.responseId) ?? fallback.id,
    object: 'chat.completion',
    created: nowSeconds(),
    model: str(body.modelVersion) ?? fallback.model,
    choices,
    system_fingerprint: null,
    usage: geminiUsage(body.usageMetadata) ?? makeUsage(0, 0),
  };
}
