/**
 * The person-name detector's word classes as they were decided before the one-lookup table:
 * up to four lookups (supplements, ambiguous words, compromise's snapshot) per word, in this
 * order. Kept as the reference `classifyWord` and `isKnownPerson` must equal
 * (name-class.test.ts).
 */
import { nameTables, type NameClass } from '../../src/filters/builtins/name-lexicon.js';

const TABLES = nameTables();

export function referenceClassifyWord(lower: string): NameClass {
  const { first: FIRST, last: LAST, ambig: AMBIG, lex: LEX } = TABLES;
  if (AMBIG.has(lower)) return 'ambiguous';
  const cls = LEX.get(lower);
  const named = cls === 'F' || cls === 'L';
  if (FIRST.has(lower) || LAST.has(lower)) {
    if (cls !== undefined && !named && cls !== 'P') return 'ambiguous';
    return FIRST.has(lower) ? 'first' : 'last';
  }
  if (cls === undefined) {
    const dash = lower.indexOf('-');
    if (dash > 0) return referenceClassifyWord(lower.slice(0, dash)) === 'first' ? 'first' : 'unknown';
    return 'unknown';
  }
  if (cls === 'F') return 'first';
  if (cls === 'L') return 'last';
  if (cls === 'P') return 'person';
  return 'common';
}

export function referenceIsKnownPerson(lowerPhrase: string): boolean {
  return TABLES.lex.get(lowerPhrase) === 'P';
}

/** Every listed word and phrase. */
export function listedWords(): string[] {
  return [...new Set([...TABLES.lex.keys(), ...TABLES.first, ...TABLES.last, ...TABLES.ambig])];
}
