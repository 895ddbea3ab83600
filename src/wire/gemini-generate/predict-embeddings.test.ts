import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { CanonicalEmbeddingsRequest } from '../../canonical/index.js';
import { predictBatchSize, predictBody, predictInputs, predictVectors } from './predict-embeddings.js';

const req = (over: Partial<CanonicalEmbeddingsRequest> = {}): CanonicalEmbeddingsRequest => ({
  model: 'text-embedding-005',
  input: ['a', 'b'],
  extra: {},
  ...over,
});

const prediction = (values: unknown[], tokenCount?: number) => ({
  embeddings: { values, statistics: tokenCount === undefined ? { truncated: false } : { token_count: tokenCount } },
});

test('body: one instance per text, dimensions as outputDimensionality, task_type only when the client gives one', () => {
  assert.deepEqual(predictBody(['a', 'b'], req({ dimensions: 8 })), {
    instances: [{ content: 'a' }, { content: 'b' }],
    parameters: { outputDimensionality: 8 },
  });
  assert.deepEqual(predictBody(['a'], req({ extra: { task_type: 'RETRIEVAL_QUERY' } })), {
    instances: [{ content: 'a', task_type: 'RETRIEVAL_QUERY' }],
  });
});

test('gemini-embedding models take one instance a call, the text models 250; token ids are refused', () => {
  assert.equal(predictBatchSize('gemini-embedding-001'), 1);
  assert.equal(predictBatchSize('text-multilingual-embedding-002'), 250);
  assert.deepEqual(predictInputs(req({ input: 'one' })), ['one']);
  assert.throws(() => predictInputs(req({ input: [1, 2] })), /text input, not token ids/);
});

test('answer: vectors in order with the summed token_count; no count is null; a wrong shape is null', () => {
  const body = { predictions: [prediction([0.5, -1], 3), prediction([1, 0], 4)] };
  assert.deepEqual(predictVectors(body, 2), {
    vectors: [
      [0.5, -1],
      [1, 0],
    ],
    tokens: 7,
  });
  assert.equal(predictVectors({ predictions: [prediction([1], 3), prediction([1])] }, 2)?.tokens, null);
  assert.equal(predictVectors(body, 3), null, 'a missing prediction');
  assert.equal(predictVectors({ predictions: [prediction(['x'], 1)] }, 1), null);
  assert.equal(predictVectors({ embeddings: [] }, 0), null);
});
