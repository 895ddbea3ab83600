import { estimateTokens } from '../../../canonical/index.js';
import { isRecord } from '../../../canonical/json.js';
import type { CountTokensRequestBody } from '../../../canonical/index.js';

/**
 * Tokens an image or a document is counted as. Its real cost depends on its size (about
 * width × height / 750 for an image), which a count does not decode; this is the cost of an
 * image at the size upstreams scale large images down to.
 */
export const ATTACHMENT_TOKENS = 1600;

/** The texts a block contributes to the prompt (tool inputs as their JSON); attachments counted apart. */
function blockTexts(block: unknown, texts: string[]): number {
  if (!isRecord(block)) return 0;
  switch (block.type) {
    case 'text':
      if (typeof block.text === 'string') texts.push(block.text);
      return 0;
    case 'thinking':
      if (typeof block.thinking === 'string') texts.push(block.thinking);
      return 0;
    case 'tool_use':
      texts.push(typeof block.name === 'string' ? block.name : '', JSON.stringify(block.input ?? {}));
      return 0;
    case 'tool_result': {
      const content = block.content;
      if (typeof content === 'string') texts.push(content);
      else if (Array.isArray(content)) return content.reduce((n: number, b: unknown) => n + blockTexts(b, texts), 0);
      return 0;
    }
    case 'image':
    case 'document':
      return 1;
    default:
      return 0;
  }
}

/**
 * `input_tokens` of a Messages body: system, every message's blocks and the tool definitions,
 * counted with the gateway's tokenizer (o200k_base). Anthropic's own tokenizer differs by a
 * few percent; the count is an estimate, as Anthropic documents its own to be.
 */
export function countMessagesTokens(body: CountTokensRequestBody): number {
  const texts: string[] = [];
  let attachments = 0;
  if (typeof body.system === 'string') texts.push(body.system);
  else for (const block of body.system ?? []) attachments += blockTexts(block, texts);
  for (const message of body.messages) {
    if (typeof message.content === 'string') texts.push(message.content);
    else for (const block of message.content) attachments += blockTexts(block, texts);
  }
  for (const tool of body.tools ?? []) texts.push(JSON.stringify(tool));
  return estimateTokens(texts.join('\n')) + attachments * ATTACHMENT_TOKENS;
}
