/**
 * The address detector's anchor scan as it was before `anchorSpans`: one JS regular expression
 * (an alternation of literals, flags `gu`), every match as `[start, end)`. Kept as the reference
 * `anchorSpans` must equal (address-anchor.test.ts) and as the baseline of
 * bench/filter-scan-alloc-bench.ts's anchor figures.
 */
import { jsSpans } from '../../src/filters/text-windows.js';

/** The street-type alternation of the address forms, as it was written out. */
export const US_TYPE_SOURCE = String.raw`(?:Street|St|Avenue|Ave|Av|Road|Rd|Boulevard|Blvd|Lane|Ln|Drive|Dr|Court|Ct|Place|Pl|Way|Terrace|Ter|Parkway|Pkwy|Highway|Hwy|Circle|Cir|Square|Sq|Trail|Trl|Plaza|Plz|Close|Crescent|Cres|Gardens|Gdns|Grove|Mews|Row|Walk|Hill|Rise|Wharf|Embankment|Loop|Alley|Pike|Causeway|street|avenue|road|lane|drive|boulevard)`;

const ANCHOR = new RegExp(
  String.raw`${US_TYPE_SOURCE}\b|(?:straße|strasse|str\.|weg|gasse|platz|allee|damm|ufer|chaussee|gracht|straat|laan|plein|kade|singel|steeg|vej|gatan|vägen|gränd|katu|tie|Straße|Strasse|Weg|Gasse|Platz|Allee|Damm|Ufer|Ring|Markt)(?![\p{L}])|\b(?:rue|avenue|av\.|boulevard|bd|place|chemin|allée|impasse|quai|cours|route|Rue|Avenue|Boulevard|Place|Chemin|Allée|Impasse|Quai|Cours|Route|Calle|C\/|Avenida|Avda\.|Plaza|Paseo|Carrer|Via|Viale|Piazza|Piazzale|Corso|Largo|Rua|Praça|Travessa|ul\.|ulica|Ulica|Box|[Cc]ode)`,
  'gu',
);

export function regexAnchorSpans(text: string): Array<[number, number]> {
  return jsSpans(ANCHOR, text);
}
