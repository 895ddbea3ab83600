import type { Filter, FilterMatch } from '../types.js';
import { BUILTIN_LABELS } from '../labels.js';
import { DigitCount, compileRe2, findSpans, isDigit } from '../regex.js';

/**
 * Payment card numbers (PANs): 12–19 digits, optionally grouped with single spaces or dashes,
 * that pass the Luhn checksum AND fall in a known issuer range with a length that issuer uses:
 * Visa, Mastercard (51–55, 2221–2720), Amex, Discover, JCB, Diners Club, UnionPay.
 * A digit run that fails as a whole is retried on its groups, so a card glued to a year or a
 * second number (`ref 2024 4111 1111 1111 1111`) is still found.
 * Misses: cards split across lines or written with dots, issuers outside the list (Maestro,
 * RuPay, Mir), UnionPay cards that fail Luhn. Rejects order/tracking numbers that fail Luhn.
 */
const CANDIDATE = compileRe2('\\d(?:[ -]?\\d){11,40}');

const LABEL = BUILTIN_LABELS['credit-card'];

export function luhnValid(digits: string): boolean {
  let sum = 0;
  let double = false;
  for (let i = digits.length - 1; i >= 0; i--) {
    let d = digits.charCodeAt(i) - 48;
    if (double) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
    double = !double;
  }
  return sum % 10 === 0;
}

/** Issuer name for a PAN whose prefix and length match a known range, else null. */
export function cardIssuer(digits: string): string | null {
  const len = digits.length;
  const p = (n: number): number => Number(digits.slice(0, n));
  if (digits[0] === '4' && (len === 13 || len === 16 || len === 19)) return 'visa';
  if (len === 16 && ((p(2) >= 51 && p(2) <= 55) || (p(4) >= 2221 && p(4) <= 2720))) return 'mastercard';
  if (len === 15 && (p(2) === 34 || p(2) === 37)) return 'amex';
  if (len >= 16 && len <= 19) {
    if (p(4) === 6011 || p(2) === 65 || (p(3) >= 644 && p(3) <= 649)) return 'discover';
    if (p(6) >= 622126 && p(6) <= 622925) return 'discover';
    if (p(4) >= 3528 && p(4) <= 3589) return 'jcb';
    if (p(2) === 62) return 'unionpay';
  }
  if (len >= 14 && len <= 19 && ((p(3) >= 300 && p(3) <= 305) || [36, 38, 39].includes(p(2)))) {
    return 'diners';
  }
  return null;
}

export function isCardNumber(digits: string): boolean {
  return digits.length >= 12 && digits.length <= 19 && cardIssuer(digits) !== null && luhnValid(digits);
}

/** Groups of a candidate (`4111 1111-1111 1111` → four groups) with their offsets. */
function groupsOf(text: string, start: number, end: number): Array<[number, number]> {
  const groups: Array<[number, number]> = [];
  let g = start;
  for (let i = start; i <= end; i++) {
    if (i === end || !isDigit(text, i)) {
      if (i > g) groups.push([g, i]);
      g = i + 1;
    }
  }
  return groups;
}

function digitsIn(text: string, start: number, end: number): string {
  return text.slice(start, end).replace(/[ -]/g, '');
}

export const creditCardFilter: Filter = {
  id: 'credit-card',
  label: LABEL,
  find(text: string, digits = new DigitCount(text)): FilterMatch[] {
    const out: FilterMatch[] = [];
    if (!digits.atLeast(12)) return out; // CANDIDATE needs twelve digits
    for (const [start, end] of findSpans(CANDIDATE, text)) {
      // Glued to more digits or to a decimal/dotted number: part of something longer.
      if (isDigit(text, end) || (text[start - 1] === '.' && isDigit(text, start - 2))) continue;
      if (text[end] === '.' && isDigit(text, end + 1)) continue;
      if (isCardNumber(digitsIn(text, start, end))) {
        out.push({ start, end, replacement: LABEL });
        continue;
      }
      // Retry on runs of whole groups, longest first from the left, without overlaps.
      const groups = groupsOf(text, start, end);
      let i = 0;
      while (i < groups.length) {
        let found = -1;
        for (let j = groups.length - 1; j > i; j--) {
          const s = groups[i]?.[0] ?? 0;
          const e = groups[j]?.[1] ?? 0;
          if (isCardNumber(digitsIn(text, s, e))) {
            found = j;
            break;
          }
        }
        if (found >= 0) {
          out.push({ start: groups[i]?.[0] ?? 0, end: groups[found]?.[1] ?? 0, replacement: LABEL });
          i = found + 1;
        } else {
          i++;
        }
      }
    }
    return out;
  },
};
