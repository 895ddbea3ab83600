/**
 * How the person-name detector reads compromise's lexicon: each entry's tag reduced to one class
 * (F first name, L last name, P person, C any other word). Only entries the detector can ever
 * look up are kept: lower-cased capitalised words and two-word phrases, i.e. letters, marks,
 * apostrophes, hyphens and spaces. Used by the generator of `name-lexicon-data.ts` and by the
 * test that keeps that snapshot equal to the installed compromise.
 */
export type LexClass = 'F' | 'L' | 'P' | 'C';

export const LEX_CLASSES: readonly LexClass[] = ['F', 'L', 'P', 'C'];

const LOOKUP_SHAPE = /^[\p{L}\p{M}'’ -]+$/u;

function classOf(tag: unknown): LexClass | null {
  const t = typeof tag === 'string' ? tag : Array.isArray(tag) ? tag.join(',') : null;
  if (t === null) return null;
  if (t === 'MaleName' || t === 'FemaleName' || t === 'FirstName') return 'F';
  if (t === 'LastName') return 'L';
  if (t === 'Person') return 'P';
  return 'C';
}

export function lexiconClasses(lexicon: Readonly<Record<string, unknown>>): Record<LexClass, string[]> {
  const out: Record<LexClass, string[]> = { F: [], L: [], P: [], C: [] };
  for (const word of Object.keys(lexicon).sort()) {
    const cls = classOf(lexicon[word]);
    if (cls !== null && LOOKUP_SHAPE.test(word)) out[cls].push(word);
  }
  return out;
}

/** compromise's lexicon (`nlp.model().one.lexicon`) as a plain record. */
export function compromiseLexicon(model: unknown): Record<string, unknown> {
  if (typeof model !== 'object' || model === null || !('one' in model)) return {};
  const one: unknown = model.one;
  if (typeof one !== 'object' || one === null || !('lexicon' in one)) return {};
  const lex: unknown = one.lexicon;
  return typeof lex === 'object' && lex !== null ? (lex as Record<string, unknown>) : {};
}
