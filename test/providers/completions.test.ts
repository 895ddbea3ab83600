import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startFakeUpstream, FAKE_TEXT, FAKE_USAGE, type FakeUpstream } from '../fake-upstream/index.js';
import { createProviderRegistry, legacyCompletion, type ProviderRegistry } from '../../src/providers/index.js';
import type { CanonicalCompletionChunk, CanonicalCompletionRequest } from '../../src/canonical/index.js';
import { ctx, endpointFor, upstreamFailure } from './scenario-kit.js';

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

const req = (over: Partial<CanonicalCompletionRequest> = {}): CanonicalCompletionRequest => ({
  model: 'm',
  prompt: 'Say hi',
  max_tokens: 50,
  extra: { echo: false },
  ...over,
});

async function collect(s: AsyncIterable<CanonicalCompletionChunk>): Promise<CanonicalCompletionChunk[]> {
  const out: CanonicalCompletionChunk[] = [];
  for await (const c of s) out.push(c);
  return out;
}

test('openai: native /completions, JSON and stream', async () => {
  fake.reset();
  const ep = endpointFor('openai', `${fake.url}/v1`);
  const { completion, completionStream } = legacyCompletion(registry.get('openai'));
  const res = await completion(ep, req(), ctx());
  assert.equal(res.object, 'text_completion');
  assert.equal(res.choices[0]?.text, FAKE_TEXT);
  assert.equal(res.usage.total_tokens, FAKE_USAGE.total_tokens);
  assert.equal(fake.requests[0]?.path, '/v1/completions');
  assert.equal(fake.requests[0]?.body?.prompt, 'Say hi');
  const chunks = await collect(await completionStream(ep, req({ stream: true }), ctx()));
  assert.equal(chunks.map((c) => c.choices.map((ch) => ch.text).join('')).join(''), FAKE_TEXT);
  assert.equal(chunks[chunks.length - 1]?.usage?.total_tokens, FAKE_USAGE.total_tokens);
});

test('anthropic: legacy completion through chat (prompt → one user turn)', async () => {
  fake.reset();
  const ep = endpointFor('anthropic', `${fake.url}/v1`);
  const adapter = registry.get('anthropic');
  assert.equal(Reflect.get(adapter, 'completion'), undefined);
  const { completion, completionStream } = legacyCompletion(adapter);
  const res = await completion(ep, req(), ctx());
  assert.equal(res.choices[0]?.text, FAKE_TEXT);
  assert.equal(res.choices[0]?.finish_reason, 'stop');
  assert.deepEqual(fake.requests[0]?.body?.messages, [{ role: 'user', content: [{ type: 'text', text: 'Say hi' }] }]);
  assert.equal(fake.requests[0]?.body?.echo, undefined, 'completion-only fields are dropped');
  const chunks = await collect(await completionStream(ep, req({ stream: true }), ctx()));
  assert.equal(chunks.map((c) => c.choices.map((ch) => ch.text).join('')).join(''), FAKE_TEXT);
  assert.equal(chunks[chunks.length - 1]?.usage?.prompt_tokens, FAKE_USAGE.prompt_tokens);
});

test('demo: prompt arrays give one choice per prompt and summed usage', async () => {
  const ep = endpointFor('demo', 'demo://local', { apiKey: null });
  const { completion, completionStream } = legacyCompletion(registry.get('demo'));
  const res = await completion(ep, req({ prompt: ['one', 'two'] }), ctx());
  assert.deepEqual(
    res.choices.map((c) => c.index),
    [0, 1],
  );
  assert.match(res.choices[1]?.text ?? '', /two/);
  const single = await completion(ep, req({ prompt: 'one' }), ctx());
  assert.ok(res.usage.total_tokens > single.usage.total_tokens);
  const chunks = await collect(await completionStream(ep, req({ prompt: ['one', 'two'], stream: true }), ctx()));
  assert.deepEqual([...new Set(chunks.flatMap((c) => c.choices.map((ch) => ch.index)))], [0, 1]);
  assert.equal(chunks[chunks.length - 1]?.usage?.total_tokens, res.usage.total_tokens);
});

test('errors before the first event reject the completion stream', async () => {
  const ep = endpointFor('anthropic', `${fake.url}/v1`);
  const err = await upstreamFailure(
    legacyCompletion(registry.get('anthropic')).completionStream(ep, req({ model: 'fail-429', stream: true }), ctx()),
  );
  assert.equal(err.status, 429);
});
