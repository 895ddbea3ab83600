import type { Filter, FilterMatch } from '../types.js';
import { BUILTIN_LABELS } from '../labels.js';
import { DigitCount, compileRe2, findSpans, isDigit, isWordChar } from '../regex.js';

/**
 * US Social Security numbers.
 * - `123-45-6789` / `123 45 6789` anywhere (the separators must be the same);
 * - a bare `123456789` only within 25 characters after a keyword (`SSN`, `social security`,
 *   `SS#`, `TIN`, `taxpayer id`), since nine digits alone are usually order or account numbers.
 * Invalid ranges are rejected: area 000, 666 and 900–999, group 00, serial 0000.
 * Misses: SSNs written with dots or mixed separators, or bare without a keyword nearby.
 */
const SEPARATED = compileRe2('\\d{3}-\\d{2}-\\d{4}|\\d{3} \\d{2} \\d{4}');
const KEYWORDED = compileRe2(
  '(?:ssn|social[ -]security(?:[ -]?(?:number|no\\.?|num|#))?|ss#|s\\.s\\.n\\.?|\\btin\\b|taxpayer id(?:entification)?(?: number)?)[^0-9\\n]{0,25}\\d{9}',
  true,
);

const LABEL = BUILTIN_LABELS.ssn;

export function isValidSsn(digits: string): boolean {
  if (!/^\d{9}$/.test(digits)) return false;
  const area = Number(digits.slice(0, 3));
  const group = digits.slice(3, 5);
  const serial = digits.slice(5);
  if (area === 0 || area === 666 || area >= 900) return false;
  return group !== '00' && serial !== '0000';
}

/** Not glued to letters/digits or to a hyphenated chain (`ABC-123-45-6789-X` part numbers). */
function isolated(text: string, start: number, end: number): boolean {
  if (isDigit(text, start - 1) || isDigit(text, end)) return false;
  const before = text[start - 1];
  const after = text[end];
  if (before === '-' && isWordChar(text, start - 2)) return false;
  if (after === '-' && isWordChar(text, end + 1)) return false;
  if (isWordChar(text, start - 1) || isWordChar(text, end)) return false;
  return true;
}

export const ssnFilter: Filter = {
  id: 'ssn',
  label: LABEL,
  find(text: string, digits = new DigitCount(text)): FilterMatch[] {
    const out: FilterMatch[] = [];
    if (!digits.atLeast(9)) return out; // both patterns need nine digits
    for (const [start, end] of findSpans(SEPARATED, text)) {
      if (!isolated(text, start, end)) continue;
      if (!isValidSsn(text.slice(start, end).replace(/\D/g, ''))) continue;
      out.push({ start, end, replacement: LABEL });
    }
    for (const [, end] of findSpans(KEYWORDED, text)) {
      const start = end - 9;
      if (!isolated(text, start, end)) continue;
      if (!isValidSsn(text.slice(start, end))) continue;
      out.push({ start, end, replacement: LABEL });
    }
    return out.sort((a, b) => a.start - b.start);
  },
};
