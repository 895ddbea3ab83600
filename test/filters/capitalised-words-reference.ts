/**
 * The person-name detector's walk over capitalised words as it was before `eachCapitalised`: one
 * global JS regex, every match as `start, end`. Kept as the reference `eachCapitalised` must equal
 * (capitalised-words.test.ts).
 */
import { eachSpan } from '../../src/filters/text-windows.js';

const TOKEN = /\p{Lu}[\p{L}\p{M}'’-]*\.?/gu;

/** Every capitalised word as `start, end` pairs, in order. */
export function regexCapitalised(text: string): number[] {
  const out: number[] = [];
  eachSpan(TOKEN, text, (start, end) => out.push(start, end));
  return out;
}
