import assert from 'node:assert/strict';
import { test } from 'node:test';
import { randomHex } from './ids.js';

test('randomHex gives the asked number of bytes as hex, never repeating across pool refills', () => {
  const seen = new Set<string>();
  // 10 bytes per id: 1,000 ids cross the 4 KB pool's refill twice.
  for (let i = 0; i < 1000; i++) {
    const id = randomHex(10);
    assert.match(id, /^[0-9a-f]{20}$/);
    assert.equal(seen.has(id), false);
    seen.add(id);
  }
  assert.match(randomHex(5000), /^[0-9a-f]{10000}$/);
});
