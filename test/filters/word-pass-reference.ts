/**
 * The two word walks that `wordPass` replaced, as they were: the person-name detector's
 * capitalised-word regex and the address anchor's loop over the characters for ASCII word
 * boundaries. Kept as the reference `wordPass` must equal (word-pass.test.ts) and as the baseline
 * of bench/filter-scan-alloc-bench.ts's word-pass figures.
 */
import { eachSpan } from '../../src/filters/text-windows.js';

/** Capitalised word, as the person-name detector matched it. */
const TOKEN = /\p{Lu}[\p{L}\p{M}'’-]*\.?/gu;

/** Every capitalised word as `start, end` pairs. */
export function regexCaps(text: string): number[] {
  const out: number[] = [];
  eachSpan(TOKEN, text, (start, end) => out.push(start, end));
  return out;
}

const LETTER = 1;
const WORD = 2;
const ENDS_WORD = 4;
const CLASS = new Uint8Array(128);
for (let c = 0; c < 128; c++) {
  const letter = (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
  const word = letter || (c >= 48 && c <= 57) || c === 95;
  CLASS[c] = (letter ? LETTER : 0) | (word ? WORD : 0) | (letter || c === 46 ? ENDS_WORD : 0);
}

/** The anchor's word ends (`2 * i`) and ASCII word starts (`2 * i + 1`), as its loop found them. */
export function loopBounds(text: string): number[] {
  const out: number[] = [];
  const n = text.length;
  let prev = 0;
  for (let i = 0; i <= n; i++) {
    const c = i < n ? text.charCodeAt(i) : 0;
    const cls = c < 128 ? (CLASS[c] as number) : 0;
    if ((prev & ENDS_WORD) !== 0 && (cls & LETTER) === 0 && i >= 2) out.push(2 * i);
    else if ((cls & WORD) !== 0 && (prev & WORD) === 0 && i + 1 < n) out.push(2 * i + 1);
    prev = cls;
  }
  return out;
}
