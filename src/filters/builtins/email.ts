import type { Filter, FilterMatch } from '../types.js';
import { BUILTIN_LABELS } from '../labels.js';
import { compileRe2, findSpans, isWordChar } from '../regex.js';

/**
 * Email addresses: an ASCII local part (letters, digits, `._%+'-`), `@`, one or more DNS labels
 * and an alphabetic TLD of 2–24 letters. RE2 (linear time).
 *
 * Misses: quoted local parts, IP-literal domains (`a@[10.0.0.1]`), internationalised
 * (non-ASCII) addresses, obfuscated forms (`bob at example dot com`).
 * Rejects: `name@localhost`, `pkg@1.2.3` (npm versions), retina asset names (`logo@2x.png`).
 */
const EMAIL = compileRe2(
  "[A-Za-z0-9][A-Za-z0-9._%+'-]{0,63}@(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\\.){1,8}[A-Za-z]{2,24}",
);

/** `icon@2x.png`, `hero@3x.webp`: image density suffixes, not mailboxes. */
const ASSET_DOMAIN = /^\d(?:\.\d)?x\./i;

const LABEL = BUILTIN_LABELS.email;

export const emailFilter: Filter = {
  id: 'email',
  label: LABEL,
  find(text: string): FilterMatch[] {
    if (!text.includes('@')) return [];
    const out: FilterMatch[] = [];
    for (const [start, rawEnd] of findSpans(EMAIL, text)) {
      let end = rawEnd;
      // The TLD must end at a word boundary: `bob@example.comx1` is not an address.
      if (isWordChar(text, end)) continue;
      // Over-long local parts: the match would start inside a longer token.
      if (isWordChar(text, start - 1)) continue;
      const at = text.indexOf('@', start);
      if (ASSET_DOMAIN.test(text.slice(at + 1, end))) continue;
      while (end > start && text[end - 1] === '.') end--;
      out.push({ start, end, replacement: LABEL });
    }
    return out;
  },
};
