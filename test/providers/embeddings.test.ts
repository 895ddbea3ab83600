import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  startFakeUpstream,
  fakeEmbedding,
  FAKE_EMBEDDING_TOKENS_PER_INPUT,
  type FakeUpstream,
} from '../fake-upstream/index.js';
import { createProviderRegistry, type ProviderRegistry } from '../../src/providers/index.js';
import type { CanonicalEmbeddingsRequest } from '../../src/canonical/index.js';
import { ctx, endpointFor } from './scenario-kit.js';

let fake: FakeUpstream;
let registry: ProviderRegistry;
before(async () => {
  fake = await startFakeUpstream();
  registry = createProviderRegistry();
});
after(async () => {
  await registry.close();
  await fake.close();
});

const req = (over: Partial<CanonicalEmbeddingsRequest> = {}): CanonicalEmbeddingsRequest => ({
  model: 'text-embed',
  input: ['alpha', 'beta'],
  extra: {},
  ...over,
});

test('openai: /embeddings with floats, the body forwarded with the upstream model name', async () => {
  fake.reset();
  const adapter = registry.get('openai');
  assert.ok(adapter.embeddings !== undefined);
  const res = await adapter.embeddings(
    endpointFor('openai', `${fake.url}/v1`),
    req({ dimensions: 4, user: 'u1', extra: { vendor_option: 1 } }),
    ctx(),
  );
  assert.equal(fake.requests[0]?.path, '/v1/embeddings');
  assert.deepEqual(fake.requests[0]?.body, {
    vendor_option: 1,
    model: 'text-embed',
    input: ['alpha', 'beta'],
    dimensions: 4,
    user: 'u1',
  });
  assert.deepEqual(
    res.data.map((d) => d.embedding),
    [fakeEmbedding(0, 4), fakeEmbedding(1, 4)],
  );
  assert.deepEqual(res.usage, {
    prompt_tokens: 2 * FAKE_EMBEDDING_TOKENS_PER_INPUT,
    completion_tokens: 0,
    total_tokens: 2 * FAKE_EMBEDDING_TOKENS_PER_INPUT,
  });
});

test('openai: base64 from the upstream is decoded (little-endian float32); token input; usage estimated when absent', async () => {
  fake.reset();
  const adapter = registry.get('openai');
  assert.ok(adapter.embeddings !== undefined);
  const ep = endpointFor('openai', `${fake.url}/v1`);
  const res = await adapter.embeddings(ep, req({ input: [1, 2, 3], encoding_format: 'base64' }), ctx());
  assert.equal(fake.requests[0]?.body?.encoding_format, 'base64');
  assert.deepEqual(res.data, [{ index: 0, embedding: fakeEmbedding(0) }]);
  fake.queue('no-usage');
  const estimated = await adapter.embeddings(ep, req({ input: [[1, 2, 3], [4]] }), ctx());
  assert.deepEqual(estimated.usage, { prompt_tokens: 4, completion_tokens: 0, total_tokens: 4, estimated: true });
});

test('openai: an upstream failure is an UpstreamError with its status', async () => {
  fake.reset();
  fake.queue('fail-429');
  const adapter = registry.get('openai');
  assert.ok(adapter.embeddings !== undefined);
  await assert.rejects(adapter.embeddings(endpointFor('openai', `${fake.url}/v1`), req(), ctx()), (error: unknown) => {
    assert.equal((error as { status?: number }).status, 429);
    return true;
  });
});

test('anthropic has no embeddings; demo answers unit vectors', async () => {
  assert.equal('embeddings' in registry.get('anthropic'), false);
  const demo = registry.get('demo');
  assert.ok(demo.embeddings !== undefined);
  const res = await demo.embeddings(endpointFor('demo', 'demo://'), req({ dimensions: 16 }), ctx());
  assert.equal(res.data.length, 2);
  for (const d of res.data) {
    assert.equal(d.embedding.length, 16);
    assert.ok(Math.abs(Math.hypot(...d.embedding) - 1) < 1e-9);
  }
});
