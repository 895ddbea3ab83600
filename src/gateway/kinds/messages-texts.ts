import type { TextSegment } from '../../filters/index.js';
import { isRecord, type JsonRecord } from '../../canonical/json.js';
import type { MessagesRequestBody } from '../../canonical/index.js';

/**
 * Every text of a Messages body that the model reads, for content filters and estimates, and
 * how to write redacted texts back into the same blocks (so a native pass-through sends the
 * redacted body with every other field intact). Screened: the system prompt, text blocks, tool
 * results (strings and their text blocks), plain-text documents, and each string inside a
 * `tool_use` input. Thinking blocks are not rewritten: they are the model's own signed output,
 * and an altered one is refused by the upstream.
 */
export interface MessagesTexts {
  segments: TextSegment[];
  withTexts(changes: readonly { index: number; text: string }[]): MessagesRequestBody;
}

/** A path from the body to a string: object keys and array indexes. */
type Path = readonly (string | number)[];

const MAX_INPUT_DEPTH = 32;

export function messagesTexts(body: MessagesRequestBody): MessagesTexts {
  const paths: Path[] = [];
  const segments: TextSegment[] = [];
  const add = (path: Path, role: TextSegment['role'], text: string) => {
    paths.push(path);
    segments.push({ role, text });
  };
  if (typeof body.system === 'string') add(['system'], 'system', body.system);
  else body.system?.forEach((block, i) => blockTexts(block, ['system', i], 'system', add));
  body.messages.forEach((m, i) => {
    const at: Path = ['messages', i, 'content'];
    if (typeof m.content === 'string') add(at, m.role, m.content);
    else m.content.forEach((block, j) => blockTexts(block, [...at, j], m.role, add));
  });
  return { segments, withTexts: (changes) => rewrite(body, changes, paths) };
}

type Add = (path: Path, role: TextSegment['role'], text: string) => void;

function blockTexts(block: JsonRecord, path: Path, role: TextSegment['role'], add: Add): void {
  switch (block.type) {
    case 'text':
      if (typeof block.text === 'string') add([...path, 'text'], role, block.text);
      return;
    case 'tool_result': {
      const content = block.content;
      if (typeof content === 'string') add([...path, 'content'], 'tool', content);
      else if (Array.isArray(content))
        content.forEach((b: unknown, k) => {
          if (isRecord(b)) blockTexts(b, [...path, 'content', k], 'tool', add);
        });
      return;
    }
    case 'document':
      if (isRecord(block.source) && block.source.type === 'text' && typeof block.source.data === 'string')
        add([...path, 'source', 'data'], role, block.source.data);
      return;
    case 'tool_use':
      leafTexts(block.input, [...path, 'input'], role, add, 0);
      return;
    default:
      return;
  }
}

/** Each string inside a tool call's input (keys are names chosen by the schema, not content). */
function leafTexts(value: unknown, path: Path, role: TextSegment['role'], add: Add, depth: number): void {
  if (typeof value === 'string') add(path, role, value);
  else if (depth >= MAX_INPUT_DEPTH) return;
  else if (Array.isArray(value)) value.forEach((v: unknown, i) => leafTexts(v, [...path, i], role, add, depth + 1));
  else if (isRecord(value))
    for (const [key, v] of Object.entries(value)) leafTexts(v, [...path, key], role, add, depth + 1);
}

/** A copy of `root` with the string at `path` replaced; containers on the path are copied, the rest shared. */
function setAt(root: unknown, path: Path, text: string): unknown {
  const [head, ...rest] = path;
  if (head === undefined) return text;
  if (Array.isArray(root) && typeof head === 'number') {
    const copy: unknown[] = root.slice();
    copy[head] = setAt(root[head], rest, text);
    return copy;
  }
  if (isRecord(root) && typeof head === 'string') return { ...root, [head]: setAt(root[head], rest, text) };
  return root;
}

function rewrite(
  body: MessagesRequestBody,
  changes: readonly { index: number; text: string }[],
  paths: readonly Path[],
): MessagesRequestBody {
  let out: unknown = body;
  for (const { index, text } of changes) {
    const path = paths[index];
    if (path !== undefined) out = setAt(out, path, text);
  }
  return out as MessagesRequestBody;
}
