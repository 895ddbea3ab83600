import { test } from 'node:test';
import assert from 'node:assert/strict';
import { forgetDigitCount, hasDigits } from './regex.js';
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

test('hasDigits: answers stay right when questions about several texts interleave', () => {
  const a = 'a1b2c3d4e5';
  const b = 'no digits here';
  assert.equal(hasDigits(a, 3), true);
  assert.equal(hasDigits(a, 5), true);
  assert.equal(hasDigits(a, 6), false);
  assert.equal(hasDigits(b, 1), false);
  assert.equal(hasDigits(a, 2), true, 'back to the first text');
  assert.equal(hasDigits(a, 6), false);
  forgetDigitCount();
  assert.equal(hasDigits('12', 2), true);
  assert.equal(hasDigits('', 1), false);
  assert.equal(hasDigits('', 0), true);
});
