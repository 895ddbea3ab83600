import { isRecord, type JsonRecord } from '../../../canonical/json.js';
import type { MessagesRequestBody, NativeTexts, TextRole } from '../../../canonical/index.js';
import { BodyTexts, type Path } from '../../body-texts.js';

/**
 * Every text of a Messages body that the model reads, for content filters and estimates, and
 * how to write redacted texts back into the same blocks (so a native pass-through sends the
 * redacted body with every other field intact). Screened: the system prompt, text blocks, tool
 * results (strings and their text blocks), plain-text documents, and each string inside a
 * `tool_use` input. Thinking blocks are not rewritten: they are the model's own signed output,
 * and an altered one is refused by the upstream.
 */
export interface MessagesTexts {
  segments: NativeTexts['segments'];
  withTexts(changes: readonly { index: number; text: string }[]): MessagesRequestBody;
}

export function messagesTexts(body: MessagesRequestBody): MessagesTexts {
  const found = new BodyTexts();
  if (typeof body.system === 'string') found.add(['system'], 'system', body.system);
  else body.system?.forEach((block, i) => blockTexts(block, ['system', i], 'system', found));
  body.messages.forEach((m, i) => {
    const at: Path = ['messages', i, 'content'];
    if (typeof m.content === 'string') found.add(at, m.role, m.content);
    else m.content.forEach((block, j) => blockTexts(block, [...at, j], m.role, found));
  });
  return found.of(body);
}

function blockTexts(block: JsonRecord, path: Path, role: TextRole, found: BodyTexts): void {
  switch (block.type) {
    case 'text':
      if (typeof block.text === 'string') found.add([...path, 'text'], role, block.text);
      return;
    case 'tool_result': {
      const content = block.content;
      if (typeof content === 'string') found.add([...path, 'content'], 'tool', content);
      else if (Array.isArray(content))
        content.forEach((b: unknown, k) => {
          if (isRecord(b)) blockTexts(b, [...path, 'content', k], 'tool', found);
        });
      return;
    }
    case 'document':
      if (isRecord(block.source) && block.source.type === 'text' && typeof block.source.data === 'string')
        found.add([...path, 'source', 'data'], role, block.source.data);
      return;
    case 'tool_use':
      found.leaves(block.input, [...path, 'input'], role);
      return;
    default:
      return;
  }
}
