import { DigitCount } from './regex.js';

/**
 * One read of a text for every word-based detector: the person-name detector's capitalised words
 * and the address anchor's ASCII word boundaries come from the same loop over the characters,
 * made once per text and shared through the scan's `TextView`, instead of a regex pass for the
 * one and a character loop for the other.
 */
export interface Words {
  /**
   * Capitalised words as `start, end` pairs in order: exactly the matches, each search resuming
   * at the previous match's end, of the global regex `\p{Lu}[\p{L}\p{M}'’-]*\.?` (flag `u`).
   */
  readonly caps: readonly number[];
  /**
   * ASCII word boundaries in ascending order, each as `2 * i` (a word end at `i ≥ 2`: an ASCII
   * letter or a dot before, no ASCII letter at `i`) or `2 * i + 1` (an ASCII word start at `i`
   * with a character after it, `\w` at `i` and none before, not also a word end).
   */
  readonly bounds: readonly number[];
}

/** ASCII classes: letter, word character (`\w`), may end a word (a letter or a dot). */
export const LETTER = 1;
export const WORD = 2;
export const ENDS_WORD = 4;
/** `\p{Lu}`, and `[\p{L}\p{M}'’-]` (a capitalised word goes on). */
const UPPER = 8;
const GOES_ON = 16;
/** Set in `BMP` once a code unit's classes are known. */
const KNOWN = 128;

export const ASCII_CLASS = new Uint8Array(128);
for (let c = 0; c < 128; c++) {
  const upper = c >= 65 && c <= 90;
  const letter = upper || (c >= 97 && c <= 122);
  const word = letter || (c >= 48 && c <= 57) || c === 95;
  ASCII_CLASS[c] =
    (letter ? LETTER : 0) |
    (word ? WORD : 0) |
    (letter || c === 46 ? ENDS_WORD : 0) |
    (upper ? UPPER : 0) |
    (letter || c === 39 || c === 45 ? GOES_ON : 0);
}

const IS_UPPER = /\p{Lu}/uy;
const IS_GOES_ON = /[\p{L}\p{M}'’-]/uy;

/** The token classes of the code point at `i` (read as one, as with flag `u`). */
function classesAt(text: string, i: number): number {
  IS_UPPER.lastIndex = i;
  IS_GOES_ON.lastIndex = i;
  return (IS_UPPER.test(text) ? UPPER : 0) | (IS_GOES_ON.test(text) ? GOES_ON : 0);
}

/** Token classes of non-ASCII BMP code units, each decided by the regexes on first sight. */
const BMP = new Uint8Array(65536);

function bmpClasses(text: string, i: number, c: number): number {
  let k = BMP[c] as number;
  if (k === 0) {
    k = classesAt(text, i) | KNOWN;
    BMP[c] = k;
  }
  return k;
}

const isLead = (c: number): boolean => c >= 0xd800 && c <= 0xdbff;
const isTrail = (c: number): boolean => c >= 0xdc00 && c <= 0xdfff;

/** The one read of `text` (linear: constant work per character). */
export function wordPass(text: string): Words {
  const caps: number[] = [];
  const bounds: number[] = [];
  const n = text.length;
  let prev = 0; // ASCII class of the code unit before i (none at the start)
  let capStart = -1; // start of the capitalised word being read, or -1
  // No closure and no regex for ASCII: the loop reads every character of the text.
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    let cls: number;
    let width = 1;
    if (c < 128) {
      cls = ASCII_CLASS[c] as number;
      if ((prev & ENDS_WORD) !== 0 && (cls & LETTER) === 0 && i >= 2) bounds.push(2 * i);
      else if ((cls & WORD) !== 0 && (prev & WORD) === 0 && i + 1 < n) bounds.push(2 * i + 1);
    } else {
      if (isLead(c) && i + 1 < n && isTrail(text.charCodeAt(i + 1))) {
        cls = classesAt(text, i);
        width = 2;
      } else {
        cls = bmpClasses(text, i, c);
      }
      if ((prev & ENDS_WORD) !== 0 && i >= 2) bounds.push(2 * i);
    }
    if (capStart < 0) {
      if ((cls & UPPER) !== 0) capStart = i;
    } else if ((cls & GOES_ON) === 0) {
      // The word ends here; a dot ends it too and is part of it. Neither can start the next one.
      caps.push(capStart, c === 46 ? i + 1 : i);
      capStart = -1;
    }
    if (width === 2) {
      // The pair's trail: not ASCII, so no word start; not after a letter or dot, so no word end.
      i++;
      prev = 0;
    } else {
      prev = c < 128 ? cls & (LETTER | WORD | ENDS_WORD) : 0;
    }
  }
  if (capStart >= 0) caps.push(capStart, n);
  if ((prev & ENDS_WORD) !== 0 && n >= 2) bounds.push(2 * n);
  return { caps, bounds };
}

/**
 * What the scan knows about one text, shared by its detectors: its digit count, and its words
 * (made on the first detector's request).
 */
export class TextView extends DigitCount {
  private read: Words | null = null;

  constructor(private readonly source: string) {
    super(source);
  }

  words(): Words {
    return (this.read ??= wordPass(this.source));
  }
}
