/**
 * The bench conversation's answer in Gemini's `generateContent` format (the same text and token
 * counts as the chat answer), for the `gemini` cells: a chat call to a model whose provider is
 * `kind: gemini`, so the gateway encodes a generateContent body and decodes Gemini's answer.
 */
import { ANSWER_PIECES, requestBody, USAGE } from './payloads.js';

export const BENCH_GEMINI_MODEL = 'bench/gemini-bench';
export const BENCH_GEMINI_PROVIDER = 'bench-gemini';
export const GEMINI_UPSTREAM_MODEL = 'gemini-bench-upstream';
export const GEMINI_UPSTREAM_KEY = 'AIzaBenchUpstreamKey000000000000000001';

/** The chat request of the gemini cells (the bench conversation, for the Gemini-served model). */
export function geminiRequestBody(stream: boolean): string {
  return requestBody(stream, { model: BENCH_GEMINI_MODEL });
}

const USAGE_METADATA = {
  promptTokenCount: USAGE.prompt_tokens,
  candidatesTokenCount: USAGE.completion_tokens,
  totalTokenCount: USAGE.total_tokens,
};

function response(parts: { text: string }[], finish: string | null, usage: Record<string, number>): string {
  const candidate: Record<string, unknown> = { content: { role: 'model', parts }, index: 0 };
  if (finish !== null) candidate.finishReason = finish;
  return JSON.stringify({
    candidates: [candidate],
    usageMetadata: usage,
    modelVersion: GEMINI_UPSTREAM_MODEL,
    responseId: 'bench-gemini-0001',
  });
}

/** The non-streaming answer. */
export function geminiResponseJson(): string {
  return response([{ text: ANSWER_PIECES.join('') }], 'STOP', USAGE_METADATA);
}

/** `streamGenerateContent?alt=sse`: one event per piece, the last with the finish and the usage. */
export function geminiSseEvents(): string[] {
  const partial = { promptTokenCount: USAGE.prompt_tokens, totalTokenCount: USAGE.prompt_tokens };
  return ANSWER_PIECES.map(
    (text, i) =>
      `data: ${i === ANSWER_PIECES.length - 1 ? response([{ text }], 'STOP', USAGE_METADATA) : response([{ text }], null, partial)}\r\n\r\n`,
  );
}
