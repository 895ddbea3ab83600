/**
 * Candidate windows: run an expensive matcher only around cheap anchor hits. Each hit
 * `[start, end)` is widened by `before`/`after` characters (out to whitespace so no word is
 * cut), overlapping windows are merged, and the matcher's spans are shifted back to text
 * offsets. A matcher whose matches are at most `before` characters before their anchor and
 * `after` characters after it finds exactly what it would find on the whole text.
 */
/** Widening to whitespace stops after this many characters (keeps long blobs linear). */
const MAX_WIDEN = 64;

export function windowsAround(
  text: string,
  hits: ReadonlyArray<readonly [number, number]>,
  before: number,
  after: number,
): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  for (const [hs, he] of hits) {
    let s = Math.max(0, hs - before);
    const sMin = Math.max(0, s - MAX_WIDEN);
    while (s > sMin && !isSpace(text.charCodeAt(s - 1))) s--;
    let e = Math.min(text.length, he + after);
    const eMax = Math.min(text.length, e + MAX_WIDEN);
    while (e < eMax && !isSpace(text.charCodeAt(e))) e++;
    const last = out[out.length - 1];
    if (last !== undefined && s <= last[1]) last[1] = Math.max(last[1], e);
    else out.push([s, e]);
  }
  return out;
}

function isSpace(c: number): boolean {
  return c === 32 || c === 10 || c === 13 || c === 9;
}

/**
 * Calls `visit` with `[start, end)` of every non-empty match of a global JS regex, in order,
 * without building a list (regex must be linear-time: see callers).
 */
export function eachSpan(re: RegExp, text: string, visit: (start: number, end: number) => void): void {
  re.lastIndex = 0;
  for (let m = re.exec(text); m !== null; m = re.exec(text)) {
    if (m[0].length === 0) {
      re.lastIndex++;
      continue;
    }
    visit(m.index, m.index + m[0].length);
  }
  re.lastIndex = 0;
}

/** Every match of a global JS regex as `[start, end)` (regex must be linear-time: see callers). */
export function jsSpans(re: RegExp, text: string): Array<[number, number]> {
  const spans: Array<[number, number]> = [];
  eachSpan(re, text, (start, end) => spans.push([start, end]));
  return spans;
}
