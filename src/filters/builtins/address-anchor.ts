/**
 * The address detector's anchor words, found without a regular expression. The anchors are the
 * matches, left to right and each resuming at the previous one's end, of the alternation
 * `US_TYPE\b | EU_SUFFIX(?![\p{L}]) | \bROMANCE` (flags `gu`), alternatives tried in the order
 * listed, the first that succeeds at a position winning. Every alternative is a literal, so a match
 * is one of three shapes:
 * - a street type ending where an ASCII word (`[A-Za-z0-9_]`) ends (it may start inside one:
 *   `FirSt `);
 * - an EU street suffix followed by no letter (a suffix: `Hauptstraße`, `Prinsengracht`);
 * - a Romance/Slavic street word starting where an ASCII word starts (a prefix: `routes`).
 * Both end-anchored shapes end before a position that holds no ASCII letter, after an ASCII letter
 * or a dot, so the text is read once for those "word ends" and ASCII word starts; at each, the few
 * literals ending (or starting) with that character pair are compared in place. Among the matches
 * found, the leftmost from the resume position wins, and at one position the earliest listed
 * alternative: exactly the regex's leftmost-first result, without trying ~130 alternatives at every
 * character.
 */

/** Street types (also the address forms' own street-type alternation, in this order). */
export const US_TYPE_WORDS: readonly string[] = (
  'Street St Avenue Ave Av Road Rd Boulevard Blvd Lane Ln Drive Dr Court Ct Place Pl Way Terrace Ter ' +
  'Parkway Pkwy Highway Hwy Circle Cir Square Sq Trail Trl Plaza Plz Close Crescent Cres Gardens Gdns ' +
  'Grove Mews Row Walk Hill Rise Wharf Embankment Loop Alley Pike Causeway street avenue road lane ' +
  'drive boulevard'
).split(' ');
/** EU street suffixes: a match is followed by no letter. */
const EU_SUFFIX_WORDS: readonly string[] = (
  'straße strasse str. weg gasse platz allee damm ufer chaussee gracht straat laan plein kade singel ' +
  'steeg vej gatan vägen gränd katu tie Straße Strasse Weg Gasse Platz Allee Damm Ufer Ring Markt'
).split(' ');
/** Romance and Slavic street words: a match starts an ASCII word (`[Cc]ode` as its two spellings). */
const ROMANCE_WORDS: readonly string[] = (
  'rue avenue av. boulevard bd place chemin allée impasse quai cours route Rue Avenue Boulevard Place ' +
  'Chemin Allée Impasse Quai Cours Route Calle C/ Avenida Avda. Plaza Paseo Carrer Via Viale Piazza ' +
  'Piazzale Corso Largo Rua Praça Travessa ul. ulica Ulica Box Code code'
).split(' ');

const enum Kind {
  /** followed by a non-word character (`\b` after a letter) */
  WordEnd,
  /** followed by no letter (`(?![\p{L}])`) */
  NoLetter,
  /** preceded by a non-word character (`\b` before a letter) */
  WordStart,
}

interface Literal {
  text: string;
  kind: Kind;
  /** Position in the alternation: the lower wins at one start. */
  order: number;
}

const LITERALS: readonly Literal[] = [
  ...US_TYPE_WORDS.map((text) => ({ text, kind: Kind.WordEnd })),
  ...EU_SUFFIX_WORDS.map((text) => ({ text, kind: Kind.NoLetter })),
  ...ROMANCE_WORDS.map((text) => ({ text, kind: Kind.WordStart })),
].map((l, order) => ({ ...l, order }));

/**
 * Key of three characters: the two nearest the boundary as 6 bits each (case kept), the third as
 * 5 bits. Folding only makes keys collide, and a collision only costs a comparison.
 */
const key3 = (far: number, mid: number, near: number): number => ((far & 31) << 12) | ((mid & 63) << 6) | (near & 63);
const KEYS = 1 << 17;

/**
 * Literals by their last three characters (end-anchored) or first three (start-anchored); a
 * two-character literal is listed under every third character. `present` has a bit set for each
 * key that lists any: one read of a 16 KB bitset (it stays in cache) rejects most words.
 */
function index(kinds: readonly Kind[], ends: boolean): { lists: Map<number, Literal[]>; present: Uint32Array } {
  const lists = new Map<number, Literal[]>();
  const present = new Uint32Array(KEYS / 32); // one bit per key: 16 KB
  for (const l of LITERALS) {
    if (!kinds.includes(l.kind)) continue;
    const t = l.text;
    const at = (k: number): number => t.charCodeAt(ends ? t.length - 1 - k : k);
    const fars = t.length >= 3 ? [at(2)] : Array.from({ length: 32 }, (_, far) => far);
    for (const far of fars) {
      const key = key3(far, at(1), at(0));
      present[key >>> 5] = (present[key >>> 5] as number) | (1 << (key & 31));
      const list = lists.get(key);
      if (list === undefined) lists.set(key, [l]);
      else list.push(l);
    }
  }
  return { lists, present };
}

const ENDING = index([Kind.WordEnd, Kind.NoLetter], true);
const STARTING = index([Kind.WordStart], false);
const ENDING_BITS = ENDING.present;
const STARTING_BITS = STARTING.present;

/** Character classes of ASCII: letter, word character (`\w`), may end a word (a letter or a dot). */
const LETTER = 1;
const WORD = 2;
const ENDS_WORD = 4;
const CLASS = new Uint8Array(128);
for (let c = 0; c < 128; c++) {
  const letter = (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
  const word = letter || (c >= 48 && c <= 57) || c === 95;
  CLASS[c] = (letter ? LETTER : 0) | (word ? WORD : 0) | (letter || c === 46 ? ENDS_WORD : 0);
}

/** A letter at `index` in the sense of the regex's `\p{L}` (read as a code point, as with `u`). */
const UNICODE_LETTER = /\p{L}/uy;

/** RegExp `\w` without `i`: ASCII letters, digits, underscore. */
function isWord(c: number): boolean {
  return c < 128 && ((CLASS[c] as number) & WORD) !== 0;
}

/** Whether `l` (placed at `start`) satisfies its side condition in `text`. */
function holds(text: string, l: Literal, start: number): boolean {
  const end = start + l.text.length;
  switch (l.kind) {
    case Kind.WordEnd:
      return end >= text.length || !isWord(text.charCodeAt(end));
    case Kind.NoLetter:
      if (end >= text.length) return true;
      UNICODE_LETTER.lastIndex = end;
      return !UNICODE_LETTER.test(text);
    case Kind.WordStart:
      return start === 0 || !isWord(text.charCodeAt(start - 1));
  }
}

/** Room for a literal's `order` in a candidate's key (`start * ORDERS + order`). */
const ORDERS = 256;

/**
 * Adds `start * ORDERS + order` for each literal of `list` placed at `start` (or ending at `at`),
 * keeping `found` sorted. A literal ends at most ten characters back, so a new key passes only
 * the few keys added at the last ten positions: the insertion stays linear in the text.
 */
function addMatches(
  text: string,
  list: readonly Literal[] | undefined,
  at: number,
  ending: boolean,
  found: number[],
): void {
  if (list === undefined) return;
  for (const l of list) {
    const start = ending ? at - l.text.length : at;
    if (start < 0 || !text.startsWith(l.text, start) || !holds(text, l, start)) continue;
    const key = start * ORDERS + l.order;
    let k = found.length;
    found.push(key);
    for (; k > 0 && (found[k - 1] as number) > key; k--) found[k] = found[k - 1] as number;
    found[k] = key;
  }
}

/** Matches found at word boundaries, each as `start * ORDERS + order`, in ascending order. */
function candidates(text: string): number[] {
  const found: number[] = [];
  const n = text.length;
  // No closure in this loop, no call per character: it reads every character of the text.
  let prev = 0; // class of the character before i (none at the start)
  for (let i = 0; i <= n; i++) {
    const c = i < n ? text.charCodeAt(i) : 0;
    const cls = c < 128 ? (CLASS[c] as number) : 0;
    if ((prev & ENDS_WORD) !== 0 && (cls & LETTER) === 0 && i >= 2) {
      // A word end at i: an ASCII letter or a dot before, no ASCII letter here.
      const key = key3(text.charCodeAt(i - 3), text.charCodeAt(i - 2), text.charCodeAt(i - 1));
      if ((ENDING_BITS[key >>> 5] as number) & (1 << (key & 31)))
        addMatches(text, ENDING.lists.get(key), i, true, found);
    } else if ((cls & WORD) !== 0 && (prev & WORD) === 0 && i + 1 < n) {
      // An ASCII word start at i (not also a word end: a word end has no letter at i, and every
      // starting literal begins with one).
      const key = key3(text.charCodeAt(i + 2), text.charCodeAt(i + 1), c);
      if ((STARTING_BITS[key >>> 5] as number) & (1 << (key & 31)))
        addMatches(text, STARTING.lists.get(key), i, false, found);
    }
    prev = cls;
  }
  return found;
}

/**
 * The anchor matches of `text` as `[start, end)`, in order: what `jsSpans` of the alternation
 * described above returns.
 */
export function anchorSpans(text: string): Array<[number, number]> {
  // Sorted by start, then by order: the first candidate at or after `pos` is the regex's match.
  const found = candidates(text);
  const spans: Array<[number, number]> = [];
  let pos = 0;
  for (const key of found) {
    const start = Math.floor(key / ORDERS);
    if (start < pos) continue;
    pos = start + (LITERALS[key % ORDERS] as Literal).text.length;
    spans.push([start, pos]);
  }
  return spans;
}
