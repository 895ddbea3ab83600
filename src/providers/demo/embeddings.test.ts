import assert from 'node:assert/strict';
import { test } from 'node:test';
import { demoEmbeddings, demoVector, DEMO_DIMENSIONS } from './embeddings.js';

const cosine = (a: number[], b: number[]) => a.reduce((s, v, i) => s + v * (b[i] ?? 0), 0);

test('demoVector: deterministic unit vectors; shared words point closer', () => {
  const a = demoVector('the cat sat on the mat', 64);
  assert.deepEqual(a, demoVector('The cat sat on the mat!', 64));
  assert.ok(Math.abs(Math.hypot(...a) - 1) < 1e-12);
  const near = demoVector('a cat on a mat', 64);
  const far = demoVector('quarterly revenue forecast spreadsheet', 64);
  assert.ok(cosine(a, near) > cosine(a, far));
  const empty = demoVector('', 8);
  assert.equal(Math.hypot(...empty), 1);
});

test('demoEmbeddings: one vector per input, dimensions, token inputs, usage', () => {
  const res = demoEmbeddings({ model: 'embed', input: ['one', 'two words'], extra: {} });
  assert.equal(res.data.length, 2);
  assert.equal(res.data[1]?.index, 1);
  assert.equal(res.data[0]?.embedding.length, DEMO_DIMENSIONS);
  assert.ok(res.usage.prompt_tokens >= 3);
  const sized = demoEmbeddings({ model: 'embed', input: 'x', dimensions: 12, extra: {} });
  assert.equal(sized.data[0]?.embedding.length, 12);
  const tokens = demoEmbeddings({ model: 'embed', input: [[1, 2], [3]], extra: {} });
  assert.equal(tokens.data.length, 2);
  assert.equal(tokens.usage.prompt_tokens, 3);
  assert.equal(demoEmbeddings({ model: 'embed', input: [5, 6, 7], extra: {} }).data.length, 1);
});
