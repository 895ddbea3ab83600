import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { ApiError, FinishReason, GoogleGenAI } from '@google/genai';
import { GEMINI_TEST } from './credentials.js';
import { startFakeGemini, type FakeGemini } from './gemini.js';

// The fake Gemini API proven faithful with Google's own SDK (@google/genai, httpOptions.baseUrl).

let fake: FakeGemini;
let ai: GoogleGenAI;
before(async () => {
  fake = await startFakeGemini();
  ai = new GoogleGenAI({ apiKey: GEMINI_TEST.apiKey, httpOptions: { baseUrl: fake.url } });
});
after(() => fake.close());

test('generateContent: thought parts, function calls with ids, usage with thoughts and cached tokens', async () => {
  fake.queue({
    text: 'Let me look.',
    thinking: { text: 'Weather lookup needed.', signature: 'sig-g' },
    toolCalls: [{ id: 'call_1', name: 'get_weather', input: { city: 'Paris' } }],
    usage: { input: 20, output: 6, cacheRead: 8, cacheWrite: 0, reasoning: 11 },
  });
  const out = await ai.models.generateContent({
    model: 'gemini-2.5-pro',
    contents: [
      { role: 'user', parts: [{ text: 'Weather?' }, { inlineData: { mimeType: 'image/png', data: 'iVBORw0KGgo=' } }] },
    ],
    config: {
      systemInstruction: 'Be brief.',
      tools: [{ functionDeclarations: [{ name: 'get_weather', parametersJsonSchema: { type: 'object' } }] }],
      thinkingConfig: { includeThoughts: true, thinkingBudget: 1024 },
    },
  });
  const parts = out.candidates?.[0]?.content?.parts ?? [];
  assert.equal(parts[0]?.thought, true);
  assert.equal(out.functionCalls?.[0]?.id, 'call_1');
  assert.deepEqual(out.functionCalls?.[0]?.args, { city: 'Paris' });
  assert.equal(out.usageMetadata?.thoughtsTokenCount, 11);
  assert.equal(out.usageMetadata?.cachedContentTokenCount, 8);
  const sent = fake.requests.at(-1);
  assert.equal(sent?.path, '/v1beta/models/gemini-2.5-pro:generateContent');
  assert.equal(sent?.headers['x-goog-api-key'], GEMINI_TEST.apiKey);
});

test('streamGenerateContent over SSE; MAX_TOKENS and SAFETY finishes', async () => {
  let text = '';
  for await (const chunk of await ai.models.generateContentStream({ model: 'gemini-2.5-flash', contents: 'Hi' }))
    text += chunk.text ?? '';
  assert.equal(text, 'Hello from the fake cloud.');
  assert.equal(fake.requests.at(-1)?.query.get('alt'), 'sse');
  fake.queue({ stop: 'max_tokens' });
  const cut = await ai.models.generateContent({ model: 'gemini-2.5-flash', contents: 'Hi' });
  assert.equal(cut.candidates?.[0]?.finishReason, FinishReason.MAX_TOKENS);
  fake.queue({ stop: 'safety' });
  const unsafe = await ai.models.generateContent({ model: 'gemini-2.5-flash', contents: 'Hi' });
  assert.equal(unsafe.candidates?.[0]?.finishReason, FinishReason.SAFETY);
});

test('countTokens, embedContent (batch) ', async () => {
  const count = await ai.models.countTokens({ model: 'gemini-2.5-flash', contents: 'twelve chars' });
  assert.equal(count.totalTokens, 3);
  const emb = await ai.models.embedContent({
    model: 'gemini-embedding-001',
    contents: ['a', 'b'],
    config: { outputDimensionality: 8 },
  });
  assert.equal(emb.embeddings?.length, 2);
  assert.equal(emb.embeddings?.[0]?.values?.length, 8);
});

test('RESOURCE_EXHAUSTED, a bad key and an invalid body are Google-shaped errors', async () => {
  fake.queue({ fail: 'throttle' });
  await assert.rejects(ai.models.generateContent({ model: 'gemini-2.5-flash', contents: 'Hi' }), (e: unknown) => {
    assert.ok(e instanceof ApiError);
    assert.equal(e.status, 429);
    assert.match(e.message, /RESOURCE_EXHAUSTED/);
    return true;
  });
  const stranger = new GoogleGenAI({ apiKey: 'AIzaWrongKey', httpOptions: { baseUrl: fake.url } });
  await assert.rejects(
    stranger.models.generateContent({ model: 'gemini-2.5-flash', contents: 'Hi' }),
    (e: unknown) => e instanceof ApiError && e.status === 400 && /API key not valid/.test(e.message),
  );
  const raw = await fetch(`${fake.url}/v1beta/models/gemini-2.5-flash:generateContent`, {
    method: 'POST',
    headers: { 'x-goog-api-key': GEMINI_TEST.apiKey },
    body: JSON.stringify({ contents: [{ role: 'user', parts: [{ text: 'x' }] }], temperature: 1 }),
  });
  assert.equal(raw.status, 400);
  assert.match(((await raw.json()) as { error: { message: string } }).error.message, /Unknown name "temperature"/);
});

test('a stream cut after two events fails in the SDK; a mid-stream RESOURCE_EXHAUSTED is reported in the stream', async () => {
  fake.queue({ cutAfterEvents: 2 });
  await assert.rejects(async () => {
    for await (const _ of await ai.models.generateContentStream({ model: 'gemini-2.5-flash', contents: 'Hi' })) void _;
  });
  fake.queue({ fail: 'throttle', failMidStream: true });
  await assert.rejects(async () => {
    for await (const _ of await ai.models.generateContentStream({ model: 'gemini-2.5-flash', contents: 'Hi' })) void _;
  }, /RESOURCE_EXHAUSTED|Resource has been exhausted/);
});
