import assert from 'node:assert/strict';
import { test } from 'node:test';
import { estimateTokens } from './usage.js';

test('estimateTokens: o200k_base counts (encoder loaded on first use), empty is 0, huge texts fall back to 4 chars a token', () => {
  assert.equal(estimateTokens(''), 0);
  assert.equal(estimateTokens('hello world, how are you'), 6);
  assert.equal(estimateTokens('a'.repeat(1_000_004)), 250_001);
});
