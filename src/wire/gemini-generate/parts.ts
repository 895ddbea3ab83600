import type { CanonicalUsage, ReasoningDetail, ToolCall } from '../../canonical/index.js';
import { int, isRecord, str, type JsonRecord } from '../../canonical/json.js';

/**
 * Reading Gemini answers (a `GenerateContentResponse`, whole or one streamed piece): candidate
 * parts, finish reasons and `usageMetadata`, shared by the JSON answer and the stream.
 */

/** `reasoning_details` format of Gemini's thought signatures (opaque; sent back on the next turn). */
export const THOUGHT_SIGNATURE_FORMAT = 'google-gemini-v1';

/** Finishes that are a filter's decision: the client sees a content-filter finish, not an error. */
const FILTERED = new Set([
  'SAFETY',
  'RECITATION',
  'BLOCKLIST',
  'PROHIBITED_CONTENT',
  'SPII',
  'IMAGE_SAFETY',
  'IMAGE_PROHIBITED_CONTENT',
  'IMAGE_RECITATION',
  'LANGUAGE',
]);

/** Gemini `finishReason` → canonical; a stop with function calls is a tool-call finish. */
export function finishReason(native: string, hasToolCalls: boolean): string {
  if (native === 'MAX_TOKENS') return 'length';
  if (FILTERED.has(native)) return 'content_filter';
  if (native === 'MALFORMED_FUNCTION_CALL' || native === 'UNEXPECTED_TOOL_CALL') return 'error';
  return hasToolCalls ? 'tool_calls' : 'stop';
}

/** What one candidate's parts say: text, thoughts, tool calls and thought signatures. */
export interface ReadParts {
  text: string;
  reasoning: string;
  details: ReasoningDetail[];
  calls: ToolCall[];
}

/**
 * The parts of a candidate. `callOffset` numbers tool calls after those of earlier stream
 * pieces (a call without Gemini's `id` gets `call_<n>`).
 */
export function readParts(candidate: JsonRecord, callOffset = 0): ReadParts {
  const out: ReadParts = { text: '', reasoning: '', details: [], calls: [] };
  const content = isRecord(candidate.content) ? candidate.content : {};
  const parts = Array.isArray(content.parts) ? content.parts : [];
  for (const part of parts) {
    if (!isRecord(part)) continue;
    const signature = str(part.thoughtSignature);
    if (isRecord(part.functionCall)) {
      const call = part.functionCall;
      const id = str(call.id) ?? `call_${callOffset + out.calls.length}`;
      out.calls.push({
        id,
        type: 'function',
        function: { name: str(call.name) ?? '', arguments: JSON.stringify(isRecord(call.args) ? call.args : {}) },
      });
      if (signature !== undefined)
        out.details.push({ type: 'reasoning.encrypted', data: signature, id, format: THOUGHT_SIGNATURE_FORMAT });
      continue;
    }
    const text = str(part.text);
    if (text === undefined) continue;
    if (part.thought === true) {
      out.reasoning += text;
      if (text !== '') out.details.push({ type: 'reasoning.text', text, format: THOUGHT_SIGNATURE_FORMAT });
    } else out.text += text;
    if (signature !== undefined)
      out.details.push({ type: 'reasoning.encrypted', data: signature, format: THOUGHT_SIGNATURE_FORMAT });
  }
  return out;
}

/** The first candidate, or null (a prompt blocked by a filter has none). */
export function firstCandidate(body: JsonRecord): JsonRecord | null {
  const candidates = Array.isArray(body.candidates) ? body.candidates : [];
  const first: unknown = candidates[0];
  return isRecord(first) ? first : null;
}

/** Why the prompt was refused (`promptFeedback.blockReason`), or null. */
export function promptBlock(body: JsonRecord): string | null {
  return isRecord(body.promptFeedback) ? (str(body.promptFeedback.blockReason) ?? null) : null;
}

/**
 * `usageMetadata` → canonical usage. Gemini counts thoughts apart from the answer; canonical
 * completion tokens include reasoning (as OpenAI's do), with the thoughts as `reasoning_tokens`.
 * Cached prompt tokens are part of `promptTokenCount`; tool-use prompt tokens are added to it.
 */
export function geminiUsage(value: unknown): CanonicalUsage | null {
  if (!isRecord(value)) return null;
  const prompt = (int(value.promptTokenCount) ?? 0) + (int(value.toolUsePromptTokenCount) ?? 0);
  const thoughts = int(value.thoughtsTokenCount) ?? 0;
  const completion = (int(value.candidatesTokenCount) ?? 0) + thoughts;
  const usage: CanonicalUsage = {
    prompt_tokens: prompt,
    completion_tokens: completion,
    total_tokens: Math.max(int(value.totalTokenCount) ?? 0, prompt + completion),
  };
  const cached = int(value.cachedContentTokenCount);
  if (cached !== undefined && cached > 0) usage.prompt_tokens_details = { cached_tokens: cached };
  if (thoughts > 0) usage.completion_tokens_details = { reasoning_tokens: thoughts };
  return usage;
}
