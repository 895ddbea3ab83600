import type {
  BuiltinFilterConfig,
  CompiledFilter,
  CompiledFilterSet,
  CustomFilterConfig,
  Filter,
  FilterAction,
  FilterMatch,
} from './types.js';
import type RE2 from 're2';
import { InvalidPatternError } from './errors.js';
import { customLabel } from './labels.js';
import { compileRe2, findSpans, MAX_PATTERN_LENGTH } from './regex.js';
import { builtinFilter } from './registry.js';

const STRENGTH: Readonly<Record<FilterAction, number>> = { flag: 0, redact: 1, block: 2 };

/**
 * Error message for a custom pattern, or null when RE2 compiles it. For 400 answers at
 * guardrail write time. RE2 rejects lookaround, backreferences and catastrophic constructs by
 * design; its matching is linear in the text, so `(a+)+$` is harmless.
 */
export function validatePattern(pattern: string): string | null {
  if (typeof pattern !== 'string' || pattern.length === 0) return 'pattern must be a non-empty string';
  if (pattern.length > MAX_PATTERN_LENGTH) return `pattern longer than ${MAX_PATTERN_LENGTH} characters`;
  try {
    compileRe2(pattern);
    return null;
  } catch (error) {
    const reason = error instanceof Error ? error.message : 'RE2 could not compile the pattern';
    return reason.length > 0 ? reason : 'RE2 could not compile the pattern';
  }
}

function customFilter(index: number, config: CustomFilterConfig, re: RE2): Filter {
  const replacement = customLabel(config.label);
  return {
    id: `custom:${index}`,
    label: replacement,
    find(text: string): FilterMatch[] {
      return findSpans(re, text).map(([start, end]) => ({ start, end, replacement }));
    },
  };
}

/** Keep one filter per entity key; the stronger action wins (block > redact > flag). */
function dedupe(filters: readonly CompiledFilter[]): CompiledFilter[] {
  const byKey = new Map<string, CompiledFilter>();
  for (const f of filters) {
    const seen = byKey.get(f.key);
    if (seen === undefined || STRENGTH[f.action] > STRENGTH[seen.action]) byKey.set(f.key, f);
  }
  // Keep first-seen order for deterministic reporting.
  const order = new Map<string, number>();
  filters.forEach((f, i) => {
    if (!order.has(f.key)) order.set(f.key, i);
  });
  return [...byKey.values()].sort((a, b) => (order.get(a.key) ?? 0) - (order.get(b.key) ?? 0));
}

/**
 * Compile a guardrail's filters once (when written or loaded). Throws InvalidPatternError
 * naming the index and pattern when RE2 cannot compile a custom pattern.
 */
export function compileFilterSet(input: {
  builtins: BuiltinFilterConfig[];
  custom: CustomFilterConfig[];
}): CompiledFilterSet {
  const filters: CompiledFilter[] = [];
  for (const b of input.builtins) {
    const injection = b.slug === 'regex-prompt-injection';
    const scope = injection ? (b.scan_scope ?? 'all_messages') : 'all_messages';
    const filter = builtinFilter(b.slug);
    filter.prepare?.();
    filters.push({
      key: injection ? `builtin:${b.slug}:${scope}` : `builtin:${b.slug}`,
      name: b.slug,
      action: b.action,
      scope,
      filter,
      ...(filter.gate === undefined ? {} : { gate: filter.gate }),
    });
  }
  input.custom.forEach((c, index) => {
    const reason = validatePattern(c.pattern);
    if (reason !== null) throw new InvalidPatternError(index, c.pattern, reason);
    const name = c.label !== null && c.label !== '' ? c.label : `custom pattern #${index + 1}`;
    filters.push({
      key: `custom:${c.pattern}`,
      name,
      action: c.action,
      scope: 'all_messages',
      filter: customFilter(index, c, compileRe2(c.pattern)),
      pattern: c.pattern,
      gate: c.pattern,
    });
  });
  return Object.freeze({ filters: Object.freeze(dedupe(filters)) });
}

/**
 * Several guardrails apply to one request: the union of their filters; for the same entity
 * (same builtin slug and scope, or same custom pattern) block beats redact beats flag.
 */
export function combineFilterSets(sets: CompiledFilterSet[]): CompiledFilterSet {
  return Object.freeze({ filters: Object.freeze(dedupe(sets.flatMap((s) => s.filters))) });
}
