import { findPhoneNumbersInText, type CountryCode } from 'libphonenumber-js/max';
import type { Filter, FilterMatch } from '../types.js';
import { BUILTIN_LABELS } from '../labels.js';
import { DigitCount } from '../regex.js';
import { jsSpans, windowsAround } from '../text-windows.js';

/**
 * Phone numbers via libphonenumber-js (full "max" metadata, so a number must be VALID for its
 * country's numbering plan, not merely the right length):
 * - international form with `+` (or `00`/`011` exit codes) for every country;
 * - national form for the default country (US/NANP: `(415) 555-2671`, `415.555.2671`).
 * An extension (`ext. 204`) is part of the match.
 * Misses: national formats of other countries (`020 7946 0958` without `+44`), numbers spelled
 * with letters (`1-800-FLOWERS`), numbers split across lines, fictional/unassigned ranges.
 * libphonenumber's matcher itself rejects dates, times, SSN-like and card-like digit runs.
 */
const DEFAULT_COUNTRY: CountryCode = 'US';

const LABEL = BUILTIN_LABELS.phone;

/**
 * Anchor: a run of at least seven digits with phone punctuation between them. libphonenumber
 * is only run on a window around each anchor (it is far slower than a regex scan over
 * prose). Linear-time JS regex: a single bounded quantifier `{5,30}` over one class, no
 * nesting, so at most 30 steps of backtracking per start position.
 */
const ANCHOR = /\d[\d\s()./-]{5,30}\d/g;
const DOTTED_QUAD = /^\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3}$/;

export const phoneFilter: Filter = {
  id: 'phone',
  label: LABEL,
  find(text: string, digits = new DigitCount(text)): FilterMatch[] {
    // An anchor holds seven digits and anchors do not overlap: a text with fewer skips the scan.
    if (!digits.atLeast(7)) return [];
    // Seven digits at least (no valid number is shorter), and not a dotted quad (an IP).
    const anchors = jsSpans(ANCHOR, text).filter(([s, e]) => {
      const run = text.slice(s, e);
      return run.replace(/\D/g, '').length >= 7 && !DOTTED_QUAD.test(run);
    });
    if (anchors.length === 0) return [];
    const out: FilterMatch[] = [];
    // `+44 ` / `tel:` before and an extension (` ext. 1234`) after stay inside the window.
    for (const [ws, we] of windowsAround(text, anchors, 12, 16)) {
      for (const found of findPhoneNumbersInText(text.slice(ws, we), { defaultCountry: DEFAULT_COUNTRY })) {
        out.push({ start: ws + found.startsAt, end: ws + found.endsAt, replacement: LABEL });
      }
    }
    return out;
  },
};
