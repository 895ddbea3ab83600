import { findPhoneNumbersInText, type CountryCode } from 'libphonenumber-js/max';
import RE2 from 're2';
import type { Filter, FilterMatch } from '../types.js';
import { BUILTIN_LABELS } from '../labels.js';

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

/** Enough digits for any phone number; most text has none and skips the library entirely. */
const DIGIT_RUN = new RE2('\\d(?:[\\s().-]{0,3}\\d){5}', 'u');

export const phoneFilter: Filter = {
  id: 'phone',
  label: LABEL,
  find(text: string): FilterMatch[] {
    if (!DIGIT_RUN.test(text)) return [];
    return findPhoneNumbersInText(text, { defaultCountry: DEFAULT_COUNTRY }).map((found) => ({
      start: found.startsAt,
      end: found.endsAt,
      replacement: LABEL,
    }));
  },
};
