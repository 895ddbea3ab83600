import type { TextSegment } from '../filters/index.js';
import { scan, type CompiledFilterSet } from '../filters/index.js';
import { errors } from '../errors/index.js';
import type { ChatRequestBody, CompletionRequestBody } from './request-schema.js';
import type { CallKind, ModelCallBody } from './request-kinds.js';

type ChatMessage = ChatRequestBody['messages'][number];

/** Where a scanned text sits in the body: a message's content, one of its parts or tool calls, or the prompt. */
type Place =
  | { at: 'content'; message: number }
  | { at: 'part'; message: number; part: number }
  | { at: 'arguments'; message: number; call: number }
  | { at: 'prompt'; index: number | null };

interface Found {
  places: Place[];
  segments: TextSegment[];
}

const textOf = (part: unknown): string | null => {
  if (typeof part !== 'object' || part === null) return null;
  const text = (part as { text?: unknown }).text;
  return typeof text === 'string' ? text : null;
};

/** Every text a request carries: message contents (strings and text parts), tool-call arguments, tool results, the prompt. */
export function collectTexts(kind: CallKind, body: ModelCallBody): Found {
  const found: Found = { places: [], segments: [] };
  const add = (place: Place, role: TextSegment['role'], text: string) => {
    found.places.push(place);
    found.segments.push({ role, text });
  };
  if (kind === 'completion') {
    const prompt = (body as CompletionRequestBody).prompt;
    if (typeof prompt === 'string') add({ at: 'prompt', index: null }, 'prompt', prompt);
    else prompt.forEach((p, index) => add({ at: 'prompt', index }, 'prompt', p));
    return found;
  }
  (body as ChatRequestBody).messages.forEach((m, message) => {
    if (typeof m.content === 'string') add({ at: 'content', message }, m.role, m.content);
    else if (Array.isArray(m.content)) {
      m.content.forEach((p, part) => {
        const text = textOf(p);
        if (text !== null) add({ at: 'part', message, part }, m.role, text);
      });
    }
    m.tool_calls?.forEach((c, call) => add({ at: 'arguments', message, call }, m.role, c.function.arguments));
  });
  return found;
}

/** A copy of the body with the changed texts written back; untouched parts are shared, not copied. */
function rewrite(kind: CallKind, body: ModelCallBody, changes: { place: Place; text: string }[]): ModelCallBody {
  if (kind === 'completion') {
    const prompt = (body as CompletionRequestBody).prompt;
    const next = typeof prompt === 'string' ? (changes[0]?.text ?? prompt) : prompt.slice();
    if (Array.isArray(next))
      for (const c of changes) if (c.place.at === 'prompt' && c.place.index !== null) next[c.place.index] = c.text;
    return { ...body, prompt: next } as ModelCallBody;
  }
  const messages: ChatMessage[] = (body as ChatRequestBody).messages.slice();
  const copied = new Set<number>();
  const own = (i: number): ChatMessage => {
    const m = messages[i] as ChatMessage;
    if (copied.has(i)) return m;
    const copy: ChatMessage = { ...m };
    if (Array.isArray(m.content)) copy.content = m.content.slice();
    if (m.tool_calls !== undefined) copy.tool_calls = m.tool_calls.map((c) => ({ ...c, function: { ...c.function } }));
    messages[i] = copy;
    copied.add(i);
    return copy;
  };
  for (const { place, text } of changes) {
    if (place.at === 'prompt') continue;
    const m = own(place.message);
    if (place.at === 'content') m.content = text;
    else if (place.at === 'part' && Array.isArray(m.content))
      m.content[place.part] = { ...m.content[place.part], text } as (typeof m.content)[number];
    else if (place.at === 'arguments' && m.tool_calls !== undefined) {
      const call = m.tool_calls[place.call];
      if (call !== undefined) call.function.arguments = text;
    }
  }
  return { ...body, messages } as ModelCallBody;
}

/**
 * Screens a request with the combined content filters of its guardrails before anything leaves
 * for an upstream. `block` refuses with 403 naming the filter (never the matched text); `redact`
 * returns a body with each match replaced by its label; `flag` lets it through with the flag.
 * A detector that fails refuses the request (503) unless `failOpen`. `texts` are the texts as
 * sent (redacted), so the caller need not walk the body again.
 */
export function screenRequest(options: {
  kind: CallKind;
  body: ModelCallBody;
  filters: CompiledFilterSet;
  failOpen: boolean;
}): { body: ModelCallBody; texts: readonly TextSegment[]; flags: string[]; redactions: number } {
  const { kind, body } = options;
  const found = collectTexts(kind, body);
  if (found.segments.length === 0) return { body, texts: [], flags: [], redactions: 0 };
  const result = scan(options.filters, found.segments, { failOpen: options.failOpen });
  if (result.blocked !== null) {
    const name = result.blocked.filter;
    throw errors.forbidden(`Request blocked by content filter "${name}"`, {
      rule: 'content_filter',
      filter: name,
      patterns: [name],
    });
  }
  const changes: { place: Place; text: string }[] = [];
  result.segments.forEach((segment, i) => {
    const place = found.places[i];
    if (place !== undefined && segment !== found.segments[i]) changes.push({ place, text: segment.text });
  });
  return {
    body: changes.length === 0 ? body : rewrite(kind, body, changes),
    texts: result.segments,
    flags: result.flags,
    redactions: result.redactions,
  };
}
