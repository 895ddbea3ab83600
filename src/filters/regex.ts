import RE2 from 're2';

/** Longest custom pattern accepted (the reference documents 100,000 characters). */
export const MAX_PATTERN_LENGTH = 100_000;

/**
 * Compile a pattern with RE2 (linear time, no lookaround, no backreferences). Global and
 * Unicode: indices are UTF-16 code units like JS strings.
 */
export function compileRe2(pattern: string, caseInsensitive = false): RE2 {
  return new RE2(pattern, caseInsensitive ? 'giu' : 'gu');
}

/**
 * Every non-empty match of a global RE2 in `text`, as `[start, end)` pairs. Empty matches are
 * skipped (a pattern like `a*` must not loop or produce zero-width spans). RE2 caches the
 * UTF-8 conversion of the last subject, so the exec loop stays linear in the text length.
 */
export function findSpans(re: RE2, text: string): Array<[number, number]> {
  const spans: Array<[number, number]> = [];
  re.lastIndex = 0;
  for (;;) {
    const m = re.exec(text);
    if (m === null) break;
    const start = m.index;
    const end = start + m[0].length;
    if (end > start) {
      spans.push([start, end]);
    } else {
      re.lastIndex = end + 1;
      if (re.lastIndex > text.length) break;
    }
  }
  re.lastIndex = 0;
  return spans;
}

/** The first capture groups of each match too, for detectors that post-validate. */
export function findMatches(re: RE2, text: string): RegExpExecArray[] {
  const out: RegExpExecArray[] = [];
  re.lastIndex = 0;
  for (;;) {
    const m = re.exec(text);
    if (m === null) break;
    if (m[0].length > 0) {
      out.push(m);
    } else {
      re.lastIndex = m.index + 1;
      if (re.lastIndex > text.length) break;
    }
  }
  re.lastIndex = 0;
  return out;
}

/** True when the character at `i` is an ASCII letter, digit or underscore. */
export function isWordChar(text: string, i: number): boolean {
  if (i < 0 || i >= text.length) return false;
  const c = text.charCodeAt(i);
  return (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;
}

export function isDigit(text: string, i: number): boolean {
  if (i < 0 || i >= text.length) return false;
  const c = text.charCodeAt(i);
  return c >= 48 && c <= 57;
}
