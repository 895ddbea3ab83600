import { scan, type CompiledFilterSet, type TextSegment } from '../filters/index.js';
import { errors } from '../errors/index.js';
import type { CallKind } from '../canonical/index.js';
import { STRATEGIES, type BodyOf, type BodyTexts, type KindStrategy } from './kinds/index.js';

/**
 * Screens a call with the combined content filters of its guardrails before anything leaves
 * for an upstream. `block` refuses with 403 naming the filter (never the matched text); `redact`
 * returns a call with each match replaced by its label; `flag` lets it through with the flag.
 * A detector that fails refuses the call (503) unless `failOpen`. `texts` are the texts as
 * sent (redacted), so the caller need not walk the body again.
 */
export function screenRequest<K extends CallKind>(options: {
  kind: K;
  body: BodyOf<K>;
  filters: CompiledFilterSet;
  failOpen: boolean;
}): Screened<BodyOf<K>> {
  const strategy: KindStrategy<K> = STRATEGIES[options.kind];
  return screenTexts(options.body, strategy.texts(options.body), options);
}

export interface Screened<B> {
  body: B;
  texts: readonly TextSegment[];
  flags: string[];
  redactions: number;
}

/** The same for any body whose texts were found (a kind's body, or a client's body kept for native pass-through). */
export function screenTexts<B>(
  body: B,
  found: BodyTexts<B>,
  options: { filters: CompiledFilterSet; failOpen: boolean },
): Screened<B> {
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
  const changes: { index: number; text: string }[] = [];
  result.segments.forEach((segment, index) => {
    if (segment !== found.segments[index]) changes.push({ index, text: segment.text });
  });
  return {
    body: changes.length === 0 ? body : found.withTexts(changes),
    texts: result.segments,
    flags: result.flags,
    redactions: result.redactions,
  };
}
