import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DigitCount } from './regex.js';

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
