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

/** The last text handed to RE2 here, and its UTF-8 bytes (kept only up to this length). */
const KEPT_TEXT_CHARS = 16_384;
let lastText = '';
let lastBytes: Buffer = Buffer.alloc(0);

/**
 * The UTF-8 bytes of `text`, made once for every RE2 that reads it in a row. Given a string,
 * each RE2 object converts it itself (into a Buffer of its own, with two persistent handles) and
 * reuses that only for its own next call; the detectors of one text are a dozen RE2 objects.
 * `Buffer.from` makes the same bytes (invalid UTF-16 replaced alike) in Node's pooled slab. A
 * longer text is not kept past the call (no large prompt stays referenced between requests).
 */
export function utf8Of(text: string): Buffer {
  if (text === lastText) return lastBytes;
  const bytes = Buffer.from(text, 'utf8');
  if (text.length <= KEPT_TEXT_CHARS) {
    lastBytes = bytes;
    lastText = text;
  }
  return bytes;
}

/**
 * What RE2 is given for `text`: its UTF-8 bytes when it is all ASCII (one byte per UTF-16 code
 * unit, so RE2's byte offsets are the string's indices and `lastIndex` means the same), else the
 * string itself (RE2 then maps offsets back to UTF-16).
 */
function subjectOf(text: string): string | Buffer {
  const bytes = utf8Of(text);
  return bytes.length === text.length ? bytes : text;
}

/** A match's start and length in the subject (UTF-16 units: see subjectOf). */
interface Hit {
  index: number;
  length: number;
}

function execOn(re: RE2, subject: string | Buffer): Hit | null {
  // Two calls only because RE2's typings overload `exec` per subject type.
  const m = typeof subject === 'string' ? re.exec(subject) : re.exec(subject);
  return m === null ? null : { index: m.index, length: m[0]?.length ?? 0 };
}

/**
 * Every non-empty match of a global RE2 in `text`, as `[start, end)` pairs. Empty matches are
 * skipped (a pattern like `a*` must not loop or produce zero-width spans). The text is
 * converted to UTF-8 once for the whole loop (here or by RE2), so it stays linear in its length.
 */
export function findSpans(re: RE2, text: string): Array<[number, number]> {
  const spans: Array<[number, number]> = [];
  const subject = subjectOf(text);
  re.lastIndex = 0;
  for (;;) {
    const m = execOn(re, subject);
    if (m === null) break;
    const start = m.index;
    const end = start + m.length;
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

/**
 * Exactly `findSpans(new RE2(parts.map((p) => `(?:${p})`).join('|')), text)`, but with one RE2
 * per alternative. A large alternation can exhaust RE2's DFA memory and fall back to the NFA
 * (the address pattern runs many times slower as one alternation than as its six parts run
 * separately). Leftmost-first semantics are kept: at the leftmost position where any part
 * matches, the first part (in order) matching there wins, with its own preferred match; the
 * scan then resumes at its end. Each part's next match is cached while it lies at or after the
 * resume position (it cannot change: matches at a given start do not depend on where the search
 * began, and RE2 sees the whole text for `\b` and anchors).
 */
export function findSpansOfAlternation(parts: readonly RE2[], text: string): Array<[number, number]> {
  const spans: Array<[number, number]> = [];
  const next: Array<Hit | null | undefined> = parts.map(() => undefined);
  const subject = subjectOf(text);
  let pos = 0;
  while (pos <= text.length) {
    let best = -1;
    let bestStart = Number.POSITIVE_INFINITY;
    for (let i = 0; i < parts.length; i++) {
      let m = next[i];
      if (m === undefined || (m !== null && m.index < pos)) {
        const re = parts[i];
        if (re === undefined) continue;
        re.lastIndex = pos;
        m = execOn(re, subject);
        next[i] = m;
      }
      if (m !== null && m !== undefined && m.index < bestStart) {
        best = i;
        bestStart = m.index;
      }
    }
    const m = next[best];
    if (m === null || m === undefined) break;
    const end = bestStart + m.length;
    if (end > bestStart) {
      spans.push([bestStart, end]);
      pos = end;
    } else {
      pos = end + 1;
    }
  }
  for (const re of parts) re.lastIndex = 0;
  return spans;
}

/** True when the character at `i` is an ASCII letter, digit or underscore. */
export function isWordChar(text: string, i: number): boolean {
  if (i < 0 || i >= text.length) return false;
  const c = text.charCodeAt(i);
  return (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;
}

/** The next ASCII digit (a native scan: prose has few, far apart). */
const DIGIT = /\d/g;

/**
 * Answers "does this text hold at least `n` ASCII digits (RE2's `\d`)?" for one text. A detector
 * whose every match needs that many digits skips its RE2 passes on text that has fewer: prose
 * usually has a handful, and a pass costs a UTF-8 conversion plus a native call per detector. The
 * count goes on from where the previous question stopped, so when the scanner hands one instance
 * to the SSN, card, IPv4, phone and address checks of a text, the text is read at most once. Each
 * digit is found by one `test` of a regex (no match object), which outruns a loop over the
 * characters when digits are sparse; a question reads at most `n` digits.
 */
export class DigitCount {
  private digits = 0;
  private countedTo = 0;

  constructor(private readonly text: string) {}

  atLeast(n: number): boolean {
    const text = this.text;
    while (this.digits < n && this.countedTo < text.length) {
      DIGIT.lastIndex = this.countedTo;
      if (DIGIT.test(text)) {
        this.digits++;
        this.countedTo = DIGIT.lastIndex;
      } else {
        this.countedTo = text.length;
      }
    }
    return this.digits >= n;
  }
}

export function isDigit(text: string, i: number): boolean {
  if (i < 0 || i >= text.length) return false;
  const c = text.charCodeAt(i);
  return c >= 48 && c <= 57;
}
