import type { CanonicalDelta } from './chunk.js';
import { contentText, type ChatMessage } from './messages.js';

/**
 * What a usage estimate counts, when an upstream reports none: the same texts whichever layer
 * estimates (the adapter for a JSON answer, the gateway once for a stream).
 */

/** The text contents of the messages, one line each: what an estimate counts as the prompt. */
export function messagesText(messages: ChatMessage[]): string {
  let text = '';
  for (const m of messages) text += contentText(m.content ?? null) + '\n';
  return text;
}

/** Text carried by a delta (for usage estimation when the upstream sends none). */
export function deltaText(d: CanonicalDelta): string {
  let text = (d.content ?? '') + (d.reasoning ?? '');
  for (const t of d.tool_calls ?? []) text += (t.function?.name ?? '') + (t.function?.arguments ?? '');
  return text;
}

/** A legacy completion's prompt as an estimate counts it: its prompts, one per line. */
export function completionPrompt(req: { prompt: string | string[] }): string {
  return typeof req.prompt === 'string' ? req.prompt : req.prompt.join('\n');
}
