/**
 * The phrases before a capitalised word that make it a name: strong (`my name is`, `Dear`,
 * `cc:`) and weak (`ask`, `thanks`, `meet`). Each is tested on the 24 characters before the
 * word and must end them, up to whitespace. A phrase ends with a character other than
 * whitespace, so that character is the last non-whitespace one before the word: most words
 * (a sentence's first word follows `. `) are ruled out by that one character, without a slice
 * or a regex run.
 */
const STRONG_TRIGGER =
  /(?:\bmy\s+name\s+is|\bmy\s+name's|\bname\s*:|\bnamed|\bcall\s+me|\bsigned|\bsincerely,|\bregards,|\bdear|\battn:?|\battention:|\bfrom:|\bcc:|\bauthor:|\bassignee:|\bcontact\s+person:)\s*$/i;
const WEAK_TRIGGER =
  /(?:\bhi|\bhello|\bhey|\bthanks,?|\bthank\s+you,?|\bcheers,|\bbest,|\bask|\btell|\bping|\bemail|\bcontact|\bthank|\bmeet|\bmet\s+with|\bspoke\s+(?:with|to)|\btalk\s+to|\bthis\s+is|\bi'm|\bi\s+am|\bcc)\s*$/i;

/** How far before the word a trigger is looked for. */
const REACH = 24;

/** The last characters the phrases can have (ASCII, either case: `i` without `u` folds ASCII only). */
function lastChars(chars: string): Uint8Array {
  const table = new Uint8Array(128);
  for (const c of chars) {
    table[c.toLowerCase().charCodeAt(0)] = 1;
    table[c.toUpperCase().charCodeAt(0)] = 1;
  }
  return table;
}
const STRONG_LAST = lastChars('s:der,n');
const WEAK_LAST = lastChars('ioys,uklgthmc');

/** RegExp `\s`: the white space and line terminators of ECMAScript. */
export function isJsSpace(c: number): boolean {
  if (c <= 0x20) return c === 0x20 || (c >= 0x09 && c <= 0x0d);
  if (c < 0xa0) return false;
  return (
    c === 0xa0 ||
    c === 0x1680 ||
    (c >= 0x2000 && c <= 0x200a) ||
    c === 0x2028 ||
    c === 0x2029 ||
    c === 0x202f ||
    c === 0x205f ||
    c === 0x3000 ||
    c === 0xfeff
  );
}

function triggered(text: string, start: number, last: Uint8Array, trigger: RegExp): boolean {
  const from = Math.max(0, start - REACH);
  let k = start - 1;
  while (k >= from && isJsSpace(text.charCodeAt(k))) k--;
  if (k < from) return false;
  const c = text.charCodeAt(k);
  if (c >= 128 || last[c] !== 1) return false;
  return trigger.test(text.slice(from, start));
}

/** A strong trigger phrase ends the 24 characters before `start`. */
export function strongTriggerBefore(text: string, start: number): boolean {
  return triggered(text, start, STRONG_LAST, STRONG_TRIGGER);
}

/** A weak trigger phrase ends the 24 characters before `start`. */
export function weakTriggerBefore(text: string, start: number): boolean {
  return triggered(text, start, WEAK_LAST, WEAK_TRIGGER);
}
