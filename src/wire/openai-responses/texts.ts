import { isRecord, type JsonRecord } from '../../canonical/json.js';
import type { NativeTexts, TextRole } from '../../canonical/index.js';
import { BodyTexts, type Path } from '../body-texts.js';

/**
 * Every text of a Responses body that the model reads, for content filters and estimates, and
 * how to write redacted texts back in place (so a native pass-through sends the redacted body
 * with every other field intact): the instructions, message contents (a string or its text
 * parts), function and custom tool calls' arguments and input, and tool outputs. Reasoning
 * items are not rewritten: they are the model's own (often encrypted) output.
 */
export function responsesTexts(body: JsonRecord): NativeTexts {
  const found = new BodyTexts();
  if (typeof body.instructions === 'string') found.add(['instructions'], 'system', body.instructions);
  const input = body.input;
  if (typeof input === 'string') found.add(['input'], 'user', input);
  else if (Array.isArray(input))
    input.forEach((item: unknown, i) => {
      if (isRecord(item)) itemTexts(item, ['input', i], found);
    });
  return found.of(body);
}

const ROLES: ReadonlySet<string> = new Set(['system', 'developer', 'user', 'assistant']);

function itemTexts(item: JsonRecord, path: Path, found: BodyTexts): void {
  const type = item.type ?? 'message';
  if (type === 'message') {
    const role: TextRole = typeof item.role === 'string' && ROLES.has(item.role) ? (item.role as TextRole) : 'user';
    contentTexts(item.content, [...path, 'content'], role, found);
  } else if (type === 'function_call' && typeof item.arguments === 'string')
    found.add([...path, 'arguments'], 'assistant', item.arguments);
  else if (type === 'custom_tool_call' && typeof item.input === 'string')
    found.add([...path, 'input'], 'assistant', item.input);
  else if (type === 'function_call_output' || type === 'custom_tool_call_output')
    contentTexts(item.output, [...path, 'output'], 'tool', found);
}

function contentTexts(content: unknown, path: Path, role: TextRole, found: BodyTexts): void {
  if (typeof content === 'string') found.add(path, role, content);
  else if (Array.isArray(content))
    content.forEach((part: unknown, j) => {
      if (isRecord(part) && typeof part.text === 'string') found.add([...path, j, 'text'], role, part.text);
    });
}
