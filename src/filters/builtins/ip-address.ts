import { isIP } from 'node:net';
import type { Filter, FilterMatch } from '../types.js';
import { BUILTIN_LABELS } from '../labels.js';
import { DigitCount, compileRe2, findSpans, isDigit, isWordChar } from '../regex.js';

/**
 * IPv4 and IPv6 addresses, each candidate validated with `node:net` `isIP` (so `999.1.1.1`,
 * leading-zero octets and malformed IPv6 fail). A port or CIDR suffix is left in place.
 * Rejects version-like strings: more than four dotted parts (`1.2.3.4.5`), a leading `v`
 * (`v1.2.3.4`), or a version/section keyword just before (`version 1.2.3.4`, `build`,
 * `release`, `section`); MAC addresses, times (`12:30:45`) and C++ scopes (`std::vector`).
 * Misses: zone ids (`fe80::1%eth0` keeps `%eth0`), IPv4 written in hex/octal/integer form.
 */
const IPV4 = compileRe2('\\d{1,3}(?:\\.\\d{1,3}){3}');
const IPV6 = compileRe2('[0-9A-Fa-f.]*:[0-9A-Fa-f.:]+');

/** Words that make a dotted quad a version or a section number rather than an address. */
const VERSION_CONTEXT =
  /(?:\bv|\bversion|\bver\.?|\breleased?|\brel\.?|\bbuilds?|\bpatch|\bsdk|\bfirmware|\bfw|\brev\.?|\bsection|\bchapter|\bclause|§)\s*:?\s*$/i;

const LABEL = BUILTIN_LABELS['ip-address'];

function v4Ok(text: string, start: number, end: number): boolean {
  const before = text[start - 1];
  if (isWordChar(text, start - 1) || before === '.') return false;
  if (isWordChar(text, end)) return false;
  if (text[end] === '.' && isDigit(text, end + 1)) return false;
  if (isIP(text.slice(start, end)) !== 4) return false;
  return !VERSION_CONTEXT.test(text.slice(Math.max(0, start - 16), start));
}

/** A dotted quad needs a digit, a dot and a digit in a row: prose with version-free numbers skips the RE2 pass. */
function hasDottedDigit(text: string): boolean {
  for (let dot = text.indexOf('.'); dot !== -1; dot = text.indexOf('.', dot + 1)) {
    if (isDigit(text, dot - 1) && isDigit(text, dot + 1)) return true;
  }
  return false;
}

export const ipAddressFilter: Filter = {
  id: 'ip-address',
  label: LABEL,
  find(text: string, digits = new DigitCount(text)): FilterMatch[] {
    const out: FilterMatch[] = [];
    if (text.includes(':')) {
      for (const [start, rawEnd] of findSpans(IPV6, text)) {
        let end = rawEnd;
        // Trailing sentence punctuation and a `:port`-less trailing colon are not part of it.
        while (end > start && (text[end - 1] === '.' || text[end - 1] === ':')) {
          if (text[end - 1] === ':' && text[end - 2] === ':') break;
          end--;
        }
        if (end - start < 2 || end - start > 45) continue;
        if (isWordChar(text, start - 1) || isWordChar(text, end)) continue;
        if (isIP(text.slice(start, end)) === 6) out.push({ start, end, replacement: LABEL });
      }
    }
    if (hasDottedDigit(text) && digits.atLeast(4)) {
      const v6 = out.slice();
      let k = 0;
      for (const [start, end] of findSpans(IPV4, text)) {
        if (!v4Ok(text, start, end)) continue;
        // Already covered by an IPv6 span (`::ffff:192.0.2.1`); both lists are sorted.
        while (k < v6.length && (v6[k]?.end ?? 0) < end) k++;
        const cover = v6[k];
        if (cover !== undefined && cover.start <= start && cover.end >= end) continue;
        out.push({ start, end, replacement: LABEL });
      }
    }
    // Fewer than two need no order (and no comparator made per call).
    return out.length < 2 ? out : out.sort((a, b) => a.start - b.start);
  },
};
