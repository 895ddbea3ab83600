import { createRequire } from 'node:module';
import type { Filter, FilterMatch } from '../types.js';
import { BUILTIN_LABELS } from '../labels.js';
import { strongTriggerBefore, weakTriggerBefore } from './person-triggers.js';
import { classifyWord, isKnownPerson, loadNameLexicon, type NameClass } from './name-lexicon.js';

/**
 * Person names. Full NLP over every prompt is far too slow for the request path (compromise
 * tags text at a rate a prompt-sized budget cannot afford), so the detector works on capitalised-word runs and decides with:
 * 1. a title before the run (`Mr.`, `Dr`, `Prof.`, `Mrs`) → the run is a name;
 * 2. a trigger before it (`my name is`, `call me`, `Dear`, `Regards,`, `ask`, `cc:`) → a name
 *    unless the word is an ordinary word;
 * 3. lexicon: a known first name (compromise's ≈3,000 plus a supplement) with optional
 *    surnames, a known surname alone or after any capitalised word, a known person bigram;
 *    first names that are everyday words (`Will`, `May`, `Bill`, `Grant`) need a surname;
 * 4. runs of two or three capitalised words none of which is in the lexicon go to
 *    compromise `nlp(sentence).people()` — only that sentence is parsed.
 * Misses: lower-case names, names in non-Latin scripts, lone unknown surnames, names that
 * are also common words without a title/surname ("ask Hope").
 */
/**
 * Capitalised words: the matches, each search resuming at the previous one's end, of
 * `\p{Lu}[\p{L}\p{M}'’-]*\.?` (flag `u`). After a capital letter the rest always matches
 * (possibly empty), so a match starts at the first capital letter from the resume position and
 * ends where the rest stops: two `test`s of the two halves find it without a match object or a
 * copy of the word (JS regexes on purpose: one native call per match would dominate the cost
 * with RE2; linear time: one starred class then an optional dot, nothing after the star that can
 * fail, so no backtracking).
 */
const CAPITAL = /\p{Lu}/gu;
const REST = /[\p{L}\p{M}'’-]*\.?/uy;

/** A UTF-16 trail surrogate: a capital letter read as a code point ending there is a pair. */
const isTrail = (c: number): boolean => c >= 0xdc00 && c <= 0xdfff;

const TITLES = new Set(
  `mr mrs ms miss mx dr prof professor sir dame lord lady rev reverend hon capt captain sgt
  sergeant lt lieutenant officer detective det judge justice senator sen governor gov rep
  president coach nurse mme mlle herr frau señor señora sr sra dott dottore madame monsieur
  uncle aunt auntie grandma grandpa father sister brother fr`.split(/\s+/),
);
const PARTICLES = /^\s(?:(?:van|von|de|der|den|da|di|del|della|la|le|du|dos|das|bin|ibn|al|el|ter|ten|af|y)\s){0,2}$/;
/**
 * Words that make a run of unknown capitalised words a place, street or organisation: such
 * runs skip the compromise parse, which costs milliseconds per sentence.
 */
const NOT_NAME_WORDS = new Set(
  `street avenue road terrace lane drive boulevard court place way square park gardens close crescent
  inc corp corporation llc ltd gmbh ag sa plc co company group holdings labs technologies systems
  services solutions software university college school academy institute hospital clinic bank
  capital partners ventures foundation association council committee department ministry agency
  lake river mount mountain bay beach island valley city county state province airport station
  hotel center centre tower building mall plaza market cloud engine platform studio studios api
  app sdk server database framework library protocol service network edition pro plus max`.split(/\s+/),
);

interface Token {
  start: number;
  end: number;
  lower: string;
  cls: NameClass;
  initial: boolean;
  caps: boolean;
  title: boolean;
}

const LABEL = BUILTIN_LABELS['person-name'];

/** Ends with `'s` or `’s`. */
function isPossessive(word: string): boolean {
  const n = word.length;
  if (n < 2 || word.charCodeAt(n - 1) !== 115 /* s */) return false;
  const q = word.charCodeAt(n - 2);
  return q === 39 /* ' */ || q === 0x2019; /* ’ */
}

/**
 * Token objects reused by every scan (`find` is synchronous and nothing it calls scans again):
 * a text's tokens are `TOKENS[0, count)`, overwritten by the next text.
 */
const TOKENS: Token[] = [];
/** Tokens kept for reuse past a scan (a long text's extra ones are dropped after it). */
const POOL_MAX = 256;

/** Fills the pooled token `index` from the match `[start, rawEnd)`. */
function toToken(text: string, start: number, rawEnd: number, index: number): Token {
  let end = rawEnd;
  const dotted = text.charCodeAt(end - 1) === 46; /* . */
  if (dotted) end--;
  let word = text.slice(start, end);
  const possessive = isPossessive(word);
  if (possessive) {
    word = word.slice(0, -2);
    end -= 2;
  }
  while (word.endsWith('-') || word.endsWith("'")) {
    word = word.slice(0, -1);
    end--;
  }
  const lower = word.toLowerCase();
  const initial = word.length === 1 && dotted;
  // A lower-case ASCII second letter settles it without an upper-cased copy of the word.
  const second = word.charCodeAt(1);
  const caps = word.length > 1 && !(second >= 97 && second <= 122) && word === word.toUpperCase();
  const title = TITLES.has(lower);
  // Keep the dot of an initial or title (`F.`, `Dr.`) so the run continues after it.
  const keepDot = dotted && !possessive && (initial || title);
  const t = TOKENS[index] ?? (TOKENS[index] = { start, end, lower, cls: 'unknown', initial, caps, title });
  t.start = start;
  t.end = keepDot ? end + 1 : end;
  t.lower = lower;
  t.cls = classifyWord(lower);
  t.initial = initial;
  t.caps = caps;
  t.title = title;
  return t;
}

/**
 * Calls `visit(text, start, end, k)` for the k-th capitalised word `[start, end)` of `text`, in
 * order; returns how many there are. `visit` must not search for capitalised words itself.
 */
export function eachCapitalised(
  text: string,
  visit: (text: string, start: number, end: number, index: number) => unknown,
): number {
  let count = 0;
  CAPITAL.lastIndex = 0;
  while (CAPITAL.test(text)) {
    const after = CAPITAL.lastIndex;
    const start = isTrail(text.charCodeAt(after - 1)) ? after - 2 : after - 1;
    REST.lastIndex = after;
    REST.test(text); // always true: every part of the rest is optional
    const end = REST.lastIndex;
    visit(text, start, end, count++);
    CAPITAL.lastIndex = end;
  }
  CAPITAL.lastIndex = 0;
  return count;
}

/**
 * Whether `tokens[i]` continues the run of `tokens[i - 1]`: separated by one space (or a
 * lower-case name particle). A single space, the usual gap, is decided without a slice.
 */
function continuesRun(text: string, prev: Token, t: Token): boolean {
  const gap = t.start - prev.end;
  if (gap === 1 && text.charCodeAt(prev.end) === 32) return true;
  return gap <= 12 && PARTICLES.test(text.slice(prev.end, t.start));
}

/** The tokens `tokens[from, to)` of one run. */
interface RunOf {
  tokens: Token[];
  from: number;
  to: number;
}

/** Whether any of `tokens[from ..= last]` satisfies `test` (false for an empty range). */
function someIn(tokens: Token[], from: number, last: number, test: (t: Token) => boolean): boolean {
  for (let k = from; k <= last; k++) if (test(tokens[k] as Token)) return true;
  return false;
}

/** May follow a first name as a middle name or surname (`Theresa May`, `John F. Kennedy`). */
const surnameLike = (t: Token): boolean => !t.caps && !t.title && t.cls !== 'common';

function sentenceAround(text: string, start: number, end: number): [number, number] {
  let s = start;
  while (s > 0 && start - s < 200 && !'.!?\n'.includes(text[s - 1] ?? '')) s--;
  let e = end;
  while (e < text.length && e - end < 200 && !'.!?\n'.includes(text[e] ?? '')) e++;
  return [s, e];
}

type Nlp = (text: string) => { people(): { json(options: { offset: boolean }): unknown } };
let nlp: Nlp | null = null;

/**
 * compromise, loaded on the first sentence that needs it (its CommonJS build, same version):
 * tens of MB resident that most deployments never need, since runs of unknown capitalised words
 * are rare and the lexicon comes from a snapshot.
 */
function parser(): Nlp {
  if (nlp === null) {
    const mod: unknown = createRequire(import.meta.url)('compromise');
    if (typeof mod !== 'function') throw new Error('compromise did not load');
    nlp = (text) => Reflect.apply(mod, undefined, [text]) as ReturnType<Nlp>;
  }
  return nlp;
}

/** compromise on one sentence: does it tag [start, end) (sentence-relative) as a person? */
function nlpSaysPerson(sentence: string, start: number, end: number): boolean {
  const people: unknown = parser()(sentence).people().json({ offset: true });
  if (!Array.isArray(people)) return false;
  for (const p of people as unknown[]) {
    const offset: unknown = typeof p === 'object' && p !== null && 'offset' in p ? p.offset : null;
    if (typeof offset !== 'object' || offset === null || !('start' in offset) || !('length' in offset)) continue;
    const s = Number(offset.start);
    const e = s + Number(offset.length);
    if (s < end && e > start) return true;
  }
  return false;
}

/**
 * compromise parses at most this many sentences per call. A text stuffed with unknown
 * capitalised pairs (each would cost a parse) cannot make a scan slow: past the budget such a
 * pair is redacted without asking (privacy first).
 */
const NLP_BUDGET = 8;

/** Decides the run `tokens[from, to)`: pushes the names it holds to `out`. */
function decideRun(text: string, run: RunOf, out: FilterMatch[], budget: { nlp: number }): void {
  const { tokens: all, from, to } = run;
  let i = from;
  while (i < to) {
    const t = all[i] as Token;
    const next = i + 1 < to ? all[i + 1] : undefined;
    // 1. Title + up to three following words: `Dr. Patel`, `Mrs Jane Doe` (the title is
    //    redacted too: it can reveal gender or profession).
    if (t.title && next !== undefined && !next.caps) {
      let j = i + 1;
      while (j + 1 < to && j - i < 3 && surnameLike(all[j + 1] as Token)) j++;
      out.push({ start: t.start, end: (all[j] as Token).end, replacement: LABEL });
      i = j + 1;
      continue;
    }
    let j = i;
    while (j + 1 < to && j - i < 3 && surnameLike(all[j + 1] as Token)) j++;
    const hasSurname = j > i;
    // The surnames are all[i + 1 .. j].
    let name = false;
    if (t.caps || t.title || t.initial) {
      name = false;
    } else if (strongTriggerBefore(text, t.start)) {
      name = t.cls !== 'common' || hasSurname;
    } else if (t.cls === 'first' || t.cls === 'last') {
      name = true;
    } else if (next !== undefined && isKnownPerson(`${t.lower} ${next.lower}`)) {
      name = true; // `Bill Gates`, `Theresa May`: known bigrams from compromise's lexicon
      j = Math.max(j, i + 1);
    } else if (t.cls === 'ambiguous' || t.cls === 'person') {
      // `Will Smith` yes, `Will you` / `May I` / `Bill` alone no.
      name = hasSurname && (j > i + 1 || (all[i + 1] as Token).cls !== 'ambiguous');
    } else if (t.cls === 'unknown' && someIn(all, i + 1, j, (w) => w.cls === 'last' || w.cls === 'first')) {
      name = true;
    } else if (t.cls === 'unknown' && weakTriggerBefore(text, t.start)) {
      name = true;
    } else if (
      t.cls === 'unknown' &&
      hasSurname &&
      !someIn(all, i + 1, j, (w) => w.cls !== 'unknown' || NOT_NAME_WORDS.has(w.lower)) &&
      !NOT_NAME_WORDS.has(t.lower)
    ) {
      const last = all[j] as Token;
      if (budget.nlp > 0) {
        budget.nlp--;
        const [s, e] = sentenceAround(text, t.start, last.end);
        name = nlpSaysPerson(text.slice(s, e), t.start - s, last.end - s);
      } else {
        name = true;
      }
    }
    if (name) out.push({ start: t.start, end: (all[j] as Token).end, replacement: LABEL });
    i = name ? j + 1 : i + 1;
  }
}

export const personNameFilter: Filter = {
  id: 'person-name',
  label: LABEL,
  prepare: loadNameLexicon,
  find(text: string): FilterMatch[] {
    const tokens = TOKENS;
    const count = eachCapitalised(text, toToken);
    const out: FilterMatch[] = [];
    const budget = { nlp: NLP_BUDGET };
    // Runs are index ranges of `tokens`, decided as each one ends (one range object per text).
    const run: RunOf = { tokens, from: 0, to: 0 };
    for (let k = 1; k <= count; k++) {
      if (k < count && continuesRun(text, tokens[k - 1] as Token, tokens[k] as Token)) continue;
      run.to = k;
      decideRun(text, run, out, budget);
      run.from = k;
    }
    if (TOKENS.length > POOL_MAX) TOKENS.length = POOL_MAX;
    return out;
  },
};
