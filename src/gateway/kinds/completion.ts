import { completionPrompt, toCanonicalCompletionRequest, type CompletionRequestBody } from '../../canonical/index.js';
import { legacyCompletion } from '../../wire/openai-completions/via-chat.js';
import type { BodyTexts, KindStrategy } from './strategy.js';

/** The prompt (one string, or each prompt of a list). */
function promptTexts(body: CompletionRequestBody): BodyTexts<CompletionRequestBody> {
  const prompts = typeof body.prompt === 'string' ? [body.prompt] : body.prompt;
  return {
    segments: prompts.map((text) => ({ role: 'prompt', text })),
    withTexts(changes) {
      if (typeof body.prompt === 'string') return { ...body, prompt: changes[0]?.text ?? body.prompt };
      const next = body.prompt.slice();
      for (const c of changes) next[c.index] = c.text;
      return { ...body, prompt: next };
    },
  };
}

/** `POST /completions` (legacy completions): served natively or through the adapter's chat. */
export const completionStrategy: KindStrategy<'completion'> = {
  kind: 'completion',
  check: () => undefined,
  texts: promptTexts,
  maxOutputTokens: (body) => body.max_tokens ?? null,
  request: (body, upstreamModel) => toCanonicalCompletionRequest(body, upstreamModel),
  send: (adapter, endpoint, req, ctx) => legacyCompletion(adapter).completion(endpoint, req, ctx),
  sendStream: (adapter, endpoint, req, ctx) => legacyCompletion(adapter).completionStream(endpoint, req, ctx),
  finish(answer) {
    return { reason: answer.choices[0]?.finish_reason ?? null, native: null };
  },
  chunkFinish(chunk) {
    for (const choice of chunk.choices)
      if (choice.finish_reason !== null && choice.finish_reason !== undefined) return choice.finish_reason;
    return null;
  },
  keepText(chunk, into) {
    for (const choice of chunk.choices) into.push(choice.text);
  },
  promptText: completionPrompt,
};
