import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isValidSsn, ssnFilter } from './ssn.js';

const found = (t: string): string[] => ssnFilter.find(t).map((m) => t.slice(m.start, m.end));

test('ssn: dashed, spaced and keyword + bare forms', () => {
  assert.deepEqual(found('SSN 123-45-6789 and 234 56 7890'), ['123-45-6789', '234 56 7890']);
  assert.deepEqual(found('Social Security No. 123456789'), ['123456789']);
});

test('ssn: invalid ranges are rejected', () => {
  for (const d of ['000123456', '666123456', '900123456', '999123456', '123004567', '123450000']) {
    assert.equal(isValidSsn(d), false, d);
  }
  assert.deepEqual(found('000-12-3456 666-12-3456 912-34-5678 123-00-4567 123-45-0000'), []);
});

test('ssn: bare nine digits without a keyword, mixed separators and longer chains do not match', () => {
  assert.deepEqual(found('order 123456789'), []);
  assert.deepEqual(found('123-45 6789'), []);
  assert.deepEqual(found('ABC-123-45-6789-X and 1123-45-6789'), []);
});
