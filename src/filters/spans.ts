import type { FilterMatch } from './types.js';

/**
 * Merge overlapping or adjacent spans. The union gets ONE placeholder: the replacement of the
 * span that starts first (ties: the longest; then the earliest given).
 */
export function mergeSpans(matches: readonly FilterMatch[]): FilterMatch[] {
  const sorted = matches
    .map((m, order) => ({ m, order }))
    .filter(({ m }) => m.end > m.start)
    .sort((a, b) => a.m.start - b.m.start || b.m.end - a.m.end || a.order - b.order);
  const merged: FilterMatch[] = [];
  for (const { m } of sorted) {
    const last = merged[merged.length - 1];
    if (last !== undefined && m.start <= last.end) {
      if (m.end > last.end) last.end = m.end;
    } else {
      merged.push({ start: m.start, end: m.end, replacement: m.replacement });
    }
  }
  return merged;
}

/** Rebuild `text` once with each (merged, sorted, disjoint) span replaced. */
export function applySpans(text: string, spans: readonly FilterMatch[]): string {
  if (spans.length === 0) return text;
  const parts: string[] = [];
  let at = 0;
  for (const s of spans) {
    parts.push(text.slice(at, s.start), s.replacement);
    at = s.end;
  }
  parts.push(text.slice(at));
  return parts.join('');
}
