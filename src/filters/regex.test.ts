import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DigitCount, compileRe2, findSpans, findSpansOfAlternation } from './regex.js';
import { gatedFiltersMayMatch } from './set-gate.js';
import { compileFilterSet } from './compile.js';

const hasDigits = (text: string, n: number): boolean => new DigitCount(text).atLeast(n);
import { ssnFilter } from './builtins/ssn.js';
import { creditCardFilter } from './builtins/credit-card.js';

test('hasDigits counts ASCII digits only, up to the threshold', () => {
  assert.equal(hasDigits('a1b2c3', 3), true);
  assert.equal(hasDigits('a1b2c', 3), false);
  assert.equal(hasDigits('٣٤٥ ①②③', 1), false, 'non-ASCII digits are not RE2 \\d');
  assert.equal(hasDigits('', 1), false);
});

test('the digit gates keep matches that have exactly the digits they need', () => {
  assert.equal(ssnFilter.find('SSN 123-45-6789').length, 1);
  assert.equal(ssnFilter.find('ssn: 123456789').length, 1);
  assert.equal(creditCardFilter.find('card 4111 1111 1111 1111').length, 1);
  assert.equal(creditCardFilter.find('card 4111-1111-1111').length, 0);
});

test('DigitCount: answers stay right when questions about several texts interleave', () => {
  const a = new DigitCount('a1b2c3d4e5');
  const b = new DigitCount('no digits here');
  assert.equal(a.atLeast(3), true);
  assert.equal(a.atLeast(5), true);
  assert.equal(a.atLeast(6), false);
  assert.equal(b.atLeast(1), false);
  assert.equal(a.atLeast(2), true, 'back to the first text');
  assert.equal(a.atLeast(6), false);
  assert.equal(hasDigits('12', 2), true);
  assert.equal(hasDigits('', 1), false);
  assert.equal(hasDigits('', 0), true);
});

test('findSpans: the same UTF-16 spans whether RE2 reads the ASCII bytes or the string', () => {
  const re = compileRe2(String.raw`ACME-\d{6}|\bx+\b`);
  const ascii = 'ref ACME-123456 and x xx, then ACME-654321.';
  const spansOf = (text: string) => {
    const out: Array<[number, number]> = [];
    re.lastIndex = 0;
    for (let m = re.exec(text); m !== null; m = re.exec(text)) out.push([m.index, m.index + m[0].length]);
    re.lastIndex = 0;
    return out;
  };
  assert.deepEqual(findSpans(re, ascii), spansOf(ascii));
  assert.equal(findSpans(re, ascii).length, 4);
  // Non-ASCII before a match: offsets are UTF-16 indices, not UTF-8 byte offsets.
  const accented = 'réf 😀 ACME-123456 et x';
  assert.deepEqual(findSpans(re, accented), spansOf(accented));
  assert.equal(accented.slice(...(findSpans(re, accented)[0] ?? [0, 0])), 'ACME-123456');
  // Interleaved texts (the last text's bytes are kept): each answer is its own text's.
  assert.deepEqual(findSpans(re, ascii), spansOf(ascii));
  assert.deepEqual(findSpansOfAlternation([compileRe2(String.raw`ACME-\d{6}`), compileRe2('x+')], ascii), [
    [4, 15],
    [20, 21],
    [22, 24],
    [31, 42],
  ]);
});

test('the set gate reads the same bytes: a match after non-ASCII text is still seen', () => {
  const set = compileFilterSet({
    builtins: [],
    custom: [
      { pattern: String.raw`ACME-\d{6}`, action: 'redact', label: null },
      { pattern: '(?i)confidential', action: 'block', label: null },
    ],
  });
  assert.equal(gatedFiltersMayMatch(set, 'plain text'), false);
  assert.equal(gatedFiltersMayMatch(set, 'ünïcödé 😀 ACME-123456'), true);
  assert.equal(gatedFiltersMayMatch(set, 'CONFIDENTIAL'), true);
});
