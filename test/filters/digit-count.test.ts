import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DigitCount } from '../../src/filters/regex.js';
import { pick, rng } from '../fixtures/filter-corpus/prng.js';

/** ASCII digits of `text`, counted one character at a time. */
function digitsOf(text: string): number {
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 48 && c <= 57) n++;
  }
  return n;
}

test('DigitCount: answers equal a plain count on 3,000 seeded texts, questions in any order', () => {
  const r = rng(2806);
  const parts = ['0', '7', '42', '9', 'a', ' ', '-', '٣', '３', '①', '²', 'é', '😀', '\ud800', '.', 'x1y', '\n'];
  for (let k = 0; k < 3000; k++) {
    let text = '';
    const len = Math.floor(r() * 40);
    for (let i = 0; i < len; i++) text += pick(r, parts);
    const total = digitsOf(text);
    const count = new DigitCount(text);
    for (let q = 0; q < 6; q++) {
      const n = Math.floor(r() * 16);
      assert.equal(count.atLeast(n), total >= n, `${JSON.stringify(text)} ≥ ${n}`);
    }
  }
});
