import type { CompiledFilter, CompiledFilterSet, FilterMatch, ScanOptions, ScanResult, TextSegment } from './types.js';
import { FilterFailureError } from './errors.js';
import { applySpans, mergeSpans } from './spans.js';
import { gatedFiltersMayMatch } from './set-gate.js';
import { DigitCount } from './regex.js';

/** Roles scanned by a `user_only` filter (the legacy completions prompt is user text). */
const USER_ROLES: ReadonlySet<TextSegment['role']> = new Set(['user', 'prompt']);

function applies(filter: CompiledFilter, segment: TextSegment): boolean {
  return filter.scope === 'all_messages' || USER_ROLES.has(segment.role);
}

/**
 * Run a compiled set over request segments. Order: block filters first (the first one that
 * matches, in set order, is reported and nothing else runs), then flag and redact filters.
 * A detector that throws fails the scan with FilterFailureError (fail-closed) unless
 * `failOpen`, which skips it and lists it in `failedFilters`.
 */
export function scan(set: CompiledFilterSet, segments: TextSegment[], options: ScanOptions = {}): ScanResult {
  const failed: string[] = [];
  // Keys of the detectors that failed open (made on the first failure: a scan rarely has one).
  let failedSet: Set<string> | null = null;
  // Per segment: can any gated filter match it at all? (one RE2 pass, computed on first need)
  // Sized up front: an empty literal grows to 17 slots on its first element.
  const gated = new Array<boolean | undefined>(segments.length);
  const mayMatch = (f: CompiledFilter, i: number, text: string): boolean => {
    if (f.gate === undefined) return true;
    let known = gated[i];
    if (known === undefined) {
      known = gatedFiltersMayMatch(set, text);
      gated[i] = known;
    }
    return known;
  };
  // Per segment: its digit count, shared by the detectors that ask (created on first need).
  const digits = new Array<DigitCount | undefined>(segments.length);
  const run = (f: CompiledFilter, i: number, text: string): FilterMatch[] => {
    if (failedSet?.has(f.key) === true) return [];
    try {
      return f.filter.find(text, (digits[i] ??= new DigitCount(text)));
    } catch (error) {
      if (options.failOpen !== true) throw new FilterFailureError(f.name, error);
      (failedSet ??= new Set()).add(f.key);
      failed.push(f.name);
      return [];
    }
  };

  // Index loops: the set's filter list is frozen, and a for-of over it allocates an iterator
  // result per filter.
  const filters = set.filters;
  for (let k = 0; k < filters.length; k++) {
    const f = filters[k] as CompiledFilter;
    if (f.action !== 'block') continue;
    for (let i = 0; i < segments.length; i++) {
      const segment = segments[i];
      if (segment === undefined || !applies(f, segment) || segment.text.length === 0 || !mayMatch(f, i, segment.text))
        continue;
      if (run(f, i, segment.text).length > 0) {
        return {
          blocked: { filter: f.name },
          flags: [],
          segments: segments.slice(),
          redactions: 0,
          failedFilters: failed,
        };
      }
    }
  }

  const flags: string[] = [];
  let redactions = 0;
  const out = segments.map((segment, i) => {
    if (segment.text.length === 0) return segment;
    let matches: FilterMatch[] | null = null;
    for (let k = 0; k < filters.length; k++) {
      const f = filters[k] as CompiledFilter;
      if (f.action === 'block' || !applies(f, segment) || !mayMatch(f, i, segment.text)) continue;
      const found = run(f, i, segment.text);
      if (found.length === 0) continue;
      if (f.action === 'flag') {
        if (!flags.includes(f.name)) flags.push(f.name);
      } else {
        matches ??= [];
        for (const m of found) matches.push(m);
      }
    }
    if (matches === null) return segment; // made only when a redacting filter found something
    const spans = mergeSpans(matches);
    redactions += spans.length;
    return { role: segment.role, text: applySpans(segment.text, spans) };
  });
  return { blocked: null, flags, segments: out, redactions, failedFilters: failed };
}
