import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { ClientSecretCredential, getBearerTokenProvider } from '@azure/identity';
import OpenAI, { AzureOpenAI } from 'openai';
import { AZURE_TEST } from './credentials.js';
import { entraTestTransport } from './entra-transport.js';
import { startFakeEntra, type FakeEntra } from './entra.js';
import { startFakeAzure, type FakeAzure } from './azure.js';

// The fake Azure OpenAI proven faithful with openai's AzureOpenAI client (api-key and Entra
// tokens from @azure/identity) and the plain OpenAI client on the v1 API.

let entra: FakeEntra;
let azure: FakeAzure;
before(async () => {
  entra = await startFakeEntra();
  azure = await startFakeAzure({ entra: entra.ledger });
});
after(async () => {
  await azure.close();
  await entra.close();
});

function keyed(): AzureOpenAI {
  return new AzureOpenAI({
    endpoint: azure.url,
    apiKey: AZURE_TEST.apiKey,
    apiVersion: '2024-10-21',
    deployment: 'gpt4o',
    maxRetries: 0,
  });
}

test('chat through a deployment with api-key: text, tools, usage, prompt filter results', async () => {
  azure.queue({
    toolCalls: [{ id: 'call_1', name: 'get_weather', input: { city: 'Paris' } }],
    usage: { input: 15, output: 4, cacheRead: 6, cacheWrite: 0, reasoning: 2 },
  });
  const out = await keyed().chat.completions.create({
    model: 'ignored',
    messages: [{ role: 'user', content: 'Weather?' }],
  });
  assert.equal(out.choices[0]?.finish_reason, 'tool_calls');
  const call = out.choices[0]?.message.tool_calls?.[0];
  assert.equal(call?.type === 'function' ? call.function.arguments : '', '{"city":"Paris"}');
  assert.equal(out.usage?.prompt_tokens_details?.cached_tokens, 6);
  assert.ok(Array.isArray((out as unknown as { prompt_filter_results: unknown[] }).prompt_filter_results));
  const sent = azure.requests.at(-1);
  assert.equal(sent?.path, '/openai/deployments/gpt4o/chat/completions');
  assert.equal(sent?.query.get('api-version'), '2024-10-21');
  assert.equal(sent?.headers['api-key'], AZURE_TEST.apiKey);
});

test('a stream with usage; a content-filter finish is an answer, not an error', async () => {
  const stream = await keyed().chat.completions.create({
    model: 'x',
    stream: true,
    stream_options: { include_usage: true },
    messages: [{ role: 'user', content: 'Hi' }],
  });
  let text = '';
  let total = 0;
  for await (const chunk of stream) {
    text += chunk.choices[0]?.delta.content ?? '';
    total = chunk.usage?.total_tokens ?? total;
  }
  assert.equal(text, 'Hello from the fake cloud.');
  assert.equal(total, 17);
  azure.queue({ stop: 'content_filter' });
  const filtered = await keyed().chat.completions.create({ model: 'x', messages: [{ role: 'user', content: 'Hi' }] });
  assert.equal(filtered.choices[0]?.finish_reason, 'content_filter');
});

test('429 with retry-after, a filtered prompt (400 content_filter), a wrong key and a missing api-version', async () => {
  azure.queue({ fail: 'throttle' });
  await assert.rejects(
    keyed().chat.completions.create({ model: 'x', messages: [{ role: 'user', content: 'Hi' }] }),
    (e: unknown) => {
      assert.ok(e instanceof OpenAI.APIError);
      assert.equal(e.status, 429);
      assert.equal((e.headers as Headers | undefined)?.get('retry-after'), '2');
      return true;
    },
  );
  azure.queue({ fail: 'prompt_filter' });
  await assert.rejects(
    keyed().chat.completions.create({ model: 'x', messages: [{ role: 'user', content: 'Hi' }] }),
    (e: unknown) => e instanceof OpenAI.APIError && e.status === 400 && e.code === 'content_filter',
  );
  const wrong = new AzureOpenAI({
    endpoint: azure.url,
    apiKey: 'not-the-key',
    apiVersion: '2024-10-21',
    deployment: 'gpt4o',
    maxRetries: 0,
  });
  await assert.rejects(wrong.chat.completions.create({ model: 'x', messages: [{ role: 'user', content: 'Hi' }] }), {
    status: 401,
  });
  const noVersion = await fetch(`${azure.url}/openai/deployments/gpt4o/chat/completions`, {
    method: 'POST',
    headers: { 'api-key': AZURE_TEST.apiKey },
    body: '{}',
  });
  assert.equal(noVersion.status, 404);
});

test('Entra: AzureOpenAI with a token provider from @azure/identity against the fake Entra endpoint', async () => {
  const credential = new ClientSecretCredential(AZURE_TEST.tenantId, AZURE_TEST.clientId, AZURE_TEST.clientSecret, {
    authorityHost: AZURE_TEST.authorityHost,
    httpClient: entraTestTransport(entra.url),
    disableInstanceDiscovery: true,
  });
  const client = new AzureOpenAI({
    endpoint: azure.url,
    azureADTokenProvider: getBearerTokenProvider(credential, AZURE_TEST.scope),
    apiVersion: '2024-10-21',
    deployment: 'gpt4o',
    maxRetries: 0,
  });
  const out = await client.chat.completions.create({ model: 'x', messages: [{ role: 'user', content: 'Hi' }] });
  assert.equal(out.choices[0]?.message.content, 'Hello from the fake cloud.');
  assert.match(String(azure.requests.at(-1)?.headers.authorization), /^Bearer /);
});

test('the v1 API (model in the body) and embeddings in base64 and floats', async () => {
  const v1 = new OpenAI({ baseURL: `${azure.url}/openai/v1`, apiKey: AZURE_TEST.apiKey, maxRetries: 0 });
  const out = await v1.chat.completions.create({ model: 'gpt4o', messages: [{ role: 'user', content: 'Hi' }] });
  assert.equal(out.model, 'gpt-4o-2024-11-20');
  assert.equal(azure.requests.at(-1)?.path, '/openai/v1/chat/completions');
  const emb = await new AzureOpenAI({
    endpoint: azure.url,
    apiKey: AZURE_TEST.apiKey,
    apiVersion: '2024-10-21',
    deployment: 'embed',
    maxRetries: 0,
  }).embeddings.create({ model: 'x', input: ['a', 'b'], dimensions: 8 });
  assert.equal(emb.data.length, 2);
  assert.equal(emb.data[0]?.embedding.length, 8);
  const floats = await v1.embeddings.create({ model: 'embed', input: 'a', dimensions: 4, encoding_format: 'float' });
  assert.equal(floats.data[0]?.embedding.length, 4);
});

/** Reads a keyed chat stream to its end. */
async function drainStream(): Promise<void> {
  const stream = await keyed().chat.completions.create({
    model: 'x',
    stream: true,
    messages: [{ role: 'user', content: 'Hi' }],
  });
  for await (const _ of stream) void _;
}

test('a mid-stream 429 error chunk and a cut stream both fail the SDK stream', async () => {
  azure.queue({ fail: 'throttle', failMidStream: true });
  await assert.rejects(drainStream(), /exceeded token rate limit/);
  azure.queue({ cutAfterEvents: 3 });
  await assert.rejects(drainStream());
});

test('the v1 Responses API with the OpenAI client: JSON, stream, and a chat body refused', async () => {
  const client = new OpenAI({ baseURL: `${azure.url}/openai/v1`, apiKey: AZURE_TEST.apiKey, maxRetries: 0 });
  const out = await client.responses.create({ model: 'gpt4o', instructions: 'Be brief.', input: 'Hi' });
  assert.equal(out.output_text, 'Hello from the fake cloud.');
  assert.equal(out.usage?.input_tokens, 12);
  assert.equal(azure.requests.at(-1)?.path, '/openai/v1/responses');
  const stream = await client.responses.create({ model: 'gpt4o', input: 'Hi', stream: true });
  let text = '';
  let done = false;
  for await (const event of stream) {
    if (event.type === 'response.output_text.delta') text += event.delta;
    if (event.type === 'response.completed') done = event.response.status === 'completed';
  }
  assert.equal(text, 'Hello from the fake cloud.');
  assert.ok(done);
  const refused = await fetch(`${azure.url}/openai/v1/responses`, {
    method: 'POST',
    headers: { 'api-key': AZURE_TEST.apiKey, 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'gpt4o', messages: [{ role: 'user', content: 'Hi' }] }),
  });
  assert.equal(refused.status, 400);
  const unknown = await fetch(`${azure.url}/openai/deployments/gpt4o/responses?api-version=2024-10-21`, {
    method: 'POST',
    headers: { 'api-key': AZURE_TEST.apiKey, 'content-type': 'application/json' },
    body: JSON.stringify({ input: 'Hi' }),
  });
  assert.equal(unknown.status, 404, 'no Responses API on a dated deployment path');
});
