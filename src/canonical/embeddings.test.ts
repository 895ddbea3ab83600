import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  decodeBase64Embedding,
  embeddingCount,
  embeddingTexts,
  encodeBase64Embedding,
  isTokenInput,
} from './embeddings.js';

test('base64 embeddings are little-endian float32, as OpenAI sends them', () => {
  // 1.0f = 0x3f800000, -2.0f = 0xc0000000, little-endian.
  assert.equal(encodeBase64Embedding([1, -2]), Buffer.from([0, 0, 0x80, 0x3f, 0, 0, 0, 0xc0]).toString('base64'));
  assert.deepEqual(decodeBase64Embedding(encodeBase64Embedding([0.5, -0.25, 3])), [0.5, -0.25, 3]);
  assert.equal(decodeBase64Embedding('AAA='), null, 'not a whole number of floats');
});

test('embedding inputs: texts, token arrays, counts', () => {
  assert.deepEqual(embeddingTexts('a'), ['a']);
  assert.deepEqual(embeddingTexts(['a', 'b']), ['a', 'b']);
  assert.deepEqual(embeddingTexts([1, 2]), []);
  assert.equal(isTokenInput([1, 2]), true);
  assert.equal(isTokenInput([[1], [2]]), true);
  assert.equal(isTokenInput(['a']), false);
  assert.equal(embeddingCount([1, 2, 3]), 1);
  assert.equal(embeddingCount([[1], [2]]), 2);
  assert.equal(embeddingCount('x'), 1);
});
