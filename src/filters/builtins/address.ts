import type { Filter, FilterMatch } from '../types.js';
import { BUILTIN_LABELS } from '../labels.js';
import { DigitCount, compileRe2, findSpansOfAlternation, isWordChar } from '../regex.js';
import { windowsAround } from '../text-windows.js';
import { US_TYPE_WORDS, anchorSpans } from './address-anchor.js';

/**
 * Street addresses (RE2, linear time). Forms:
 * - US/UK: house number + 1–4 capitalised street-name words + street type (`Street`, `St`,
 *   `Ave`, `Road`, `Close`, `Crescent`, …), then optionally a unit (`Apt 4B`, `Suite 210`,
 *   `Flat 3`), city + state + ZIP (`Springfield, IL 62704`) or city + UK postcode;
 *   `PO Box 123`.
 * - Germanic/Nordic/Dutch: street word with a street suffix + house number
 *   (`Hauptstraße 12`, `Karl-Marx-Allee 3`, `Prinsengracht 263`, `Berliner Straße 5a`),
 *   optionally `, 10115 Berlin` / `, 1016 GV Amsterdam`.
 * - Romance: `12 rue de la Paix, 75002 Paris`, `Calle Mayor 5`, `Via Roma 10`, `Rua Augusta 100`.
 * - UK postcodes after a city (`London SW1A 1AA`) or after `postcode:`.
 * Misses: addresses without a house number, all-lowercase street names, rural/route addresses
 * (`RR 2`, `Highway 61` with no number first), Asian block addresses, free-form directions.
 */
const UP = String.raw`\p{Lu}[\p{L}\p{M}'’.-]*`;
const NUM = String.raw`\d{1,6}[A-Za-z]?(?:-\d{1,4})?`;
const US_TYPE = `(?:${US_TYPE_WORDS.join('|')})`;
const UNIT = String.raw`(?:,?\s+(?:Apt|Apartment|Suite|Ste|Unit|Flat|Floor|Fl|Room|Rm|#)\.?\s*#?[A-Za-z0-9-]{1,6})?`;
const CITY = String.raw`\p{Lu}[\p{L}\p{M}.'-]*(?:\s+\p{Lu}[\p{L}\p{M}.'-]*){0,2}`;
const UK_POSTCODE = String.raw`[A-Z]{1,2}\d[A-Z\d]?\s?\d[ABD-HJLNP-UW-Z]{2}`;
const US_TAIL = String.raw`(?:,\s*${CITY},?\s+[A-Z]{2}\s+\d{5}(?:-\d{4})?|,?\s+[A-Z]{2}\s+\d{5}(?:-\d{4})?|,\s*${CITY},?\s+${UK_POSTCODE}|,\s*${UK_POSTCODE}|,\s*${CITY}(?:\s+\d{1,2}\b)?)?`;
const LEAD_UNIT = String.raw`(?:(?:Flat|Apt|Apartment|Unit|Suite)\s+[A-Za-z0-9-]{1,5},?\s+)?`;
const US_FORM = String.raw`${LEAD_UNIT}${NUM},?\s+(?:(?:[NSEW]|North|South|East|West|Old|Upper|Lower)\.?\s+)?(?:(?:${UP}|\d{1,3}(?:st|nd|rd|th))\s+){1,4}${US_TYPE}\b\.?(?:\s+(?:NW|NE|SW|SE|N|S|E|W|North|South|East|West)\b\.?)?${UNIT}${US_TAIL}`;
const PO_BOX = String.raw`(?:P\.?\s?O\.?\s*Box|Post\s+Office\s+Box)\s+\d{1,6}${US_TAIL}`;

const EU_SUFFIX = String.raw`(?i:straße|strasse|str\.|weg|gasse|platz|allee|damm|ufer|chaussee|gracht|straat|laan|plein|kade|singel|steeg|vej|gatan|vägen|gränd|katu|tie)`;
const EU_WORD = String.raw`(?:Straße|Strasse|Str\.|Weg|Gasse|Platz|Allee|Damm|Ufer|Ring|Chaussee|Markt)`;
const EU_POST = String.raw`(?:,?\s*(?:[A-Z]{1,2}-)?(?:\d{4}\s?[A-Z]{2}\b|\d{3}\s\d{2}\b|\d{4,5})\s+\p{Lu}[\p{L}\p{M}-]+(?:\s+(?:am|an\s+der|im)\s+\p{Lu}[\p{L}\p{M}-]+)?)?`;
const GERMANIC = String.raw`(?:\p{Lu}[\p{L}\p{M}-]*[\p{Ll}-]${EU_SUFFIX}|\p{Lu}[\p{L}\p{M}]+\s+${EU_WORD})\s+\d{1,4}(?:\s?[a-zA-Z]\b)?(?:-\d{1,4})?${EU_POST}`;

const PARTICLE = String.raw`(?:(?:de\s+la|de\s+l'|de|du|des|d'|la|le|les|del|di|della|dei|degli|do|dos|das|da)\s*)`;
const ROMANCE_NAME = String.raw`${PARTICLE}?\p{Lu}[\p{L}\p{M}'-]+(?:\s+${PARTICLE}?\p{Lu}[\p{L}\p{M}'-]+){0,3}`;
const ROMANCE_POST = String.raw`(?:,?\s*(?:\d{4}-\d{3}|\d{2}-\d{3}|\d{4,5})\s+\p{Lu}[\p{L}\p{M}-]+)?`;
const NUMBER_FIRST = String.raw`\d{1,4}(?:\s?(?:bis|ter))?,?\s+(?:rue|avenue|av\.|boulevard|bd|place|chemin|allée|impasse|quai|cours|route|Rue|Avenue|Boulevard|Place|Chemin|Allée|Impasse|Quai|Cours|Route)\s+${ROMANCE_NAME}${ROMANCE_POST}`;
const TYPE_FIRST = String.raw`(?:Calle|C/|Avenida|Avda\.|Plaza|Paseo|Carrer|Via|Viale|Piazza|Piazzale|Corso|Largo|Rua|Praça|Travessa|Rue|ul\.|ulica|Ulica)\s+${ROMANCE_NAME},?\s+(?:n[º°o]\.?\s*)?\d{1,4}[a-zA-Z]?\b${ROMANCE_POST}`;
const POSTCODE_KEYWORD = String.raw`(?i:post\s?code|postal\s+code)\s*:?\s*${UK_POSTCODE}`;

/** The address pattern is the alternation of these forms, in this order. */
export const ADDRESS_FORMS: readonly string[] = [US_FORM, PO_BOX, GERMANIC, NUMBER_FIRST, TYPE_FIRST, POSTCODE_KEYWORD];
/** One RE2 per form (see findSpansOfAlternation: the joined pattern falls off RE2's DFA). */
const ADDRESS_PARTS = ADDRESS_FORMS.map((form) => compileRe2(form));

/**
 * Every form above contains one of these words (street type, EU suffix, `Box`, `code`). The
 * full pattern is large (Unicode classes, many alternatives) and slow for RE2 over long text,
 * so it only runs on windows around these anchors (`anchorSpans`: a lookup of the words at word
 * boundaries, one read of the text).
 */
/** Longest stretch of an address before / after its anchor word. */
const BEFORE = 160;
const AFTER = 200;

const LABEL = BUILTIN_LABELS.address;

export const addressFilter: Filter = {
  id: 'address',
  label: LABEL,
  find(text: string, digits = new DigitCount(text)): FilterMatch[] {
    const out: FilterMatch[] = [];
    // Every form needs a digit (below, per window): text without one skips even the anchor scan.
    if (!digits.atLeast(1)) return out;
    for (const [ws, we] of windowsAround(text, anchorSpans(text), BEFORE, AFTER)) {
      const window = text.slice(ws, we);
      if (!new DigitCount(window).atLeast(1)) continue; // every form has a house number, box number or postcode digit
      for (const [s, e] of findSpansOfAlternation(ADDRESS_PARTS, window)) collect(text, ws + s, ws + e, out);
    }
    return out;
  },
};

function collect(text: string, start: number, rawEnd: number, out: FilterMatch[]): void {
  // Starts inside a longer token (`A12 Main St` part numbers, `x10 Downing…`).
  if (isWordChar(text, start - 1)) return;
  let end = rawEnd;
  while (end > start && (text[end - 1] === ',' || text[end - 1] === ' ')) end--;
  out.push({ start, end, replacement: LABEL });
}
