import RE2 from 're2';
import type { CompiledFilterSet } from './types.js';

/**
 * One RE2 pass that says whether ANY custom pattern of a set can match a text: the patterns'
 * alternation `(?:p1)|(?:p2)|…` (inline flags such as `(?i)` stay scoped to their group). When
 * it finds nothing, no single pattern matches either, and all of them are skipped; when it
 * finds something, each pattern runs on its own as before, so matches and overlaps are exactly
 * those of separate passes. Ten patterns cost ~1 pass instead of 10 on clean text (the usual
 * case). Null when a set has fewer than two patterns or the alternation does not compile
 * (e.g. too large for RE2's memory budget): then every pattern simply runs.
 */
const gates = new WeakMap<CompiledFilterSet, RE2 | null>();

function build(set: CompiledFilterSet): RE2 | null {
  const sources: string[] = [];
  for (const f of set.filters) if (f.pattern !== undefined) sources.push(`(?:${f.pattern})`);
  if (sources.length < 2) return null;
  try {
    return new RE2(sources.join('|'), 'u');
  } catch {
    return null;
  }
}

/** False only when no custom pattern of the set matches anywhere in `text`. */
export function customPatternsMayMatch(set: CompiledFilterSet, text: string): boolean {
  let gate = gates.get(set);
  if (gate === undefined) {
    gate = build(set);
    gates.set(set, gate);
  }
  if (gate === null) return true;
  try {
    return gate.test(text);
  } catch {
    return true;
  }
}
