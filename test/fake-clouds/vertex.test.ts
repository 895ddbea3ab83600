import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import AnthropicVertex from '@anthropic-ai/vertex-sdk';
import { GoogleGenAI } from '@google/genai';
import { Compute, GoogleAuth } from 'google-auth-library';
import { GOOGLE_TEST } from './credentials.js';
import { startFakeGoogleOAuth, type FakeGoogleOAuth } from './google-oauth.js';
import { startFakeVertex, type FakeVertex } from './vertex.js';

// The fake Vertex AI proven faithful with @google/genai (vertexai) and @anthropic-ai/vertex-sdk,
// both authenticating through google-auth-library against the fake Google token endpoint.

let oauth: FakeGoogleOAuth;
let vertex: FakeVertex;
let previousHost: string | undefined;
before(async () => {
  oauth = await startFakeGoogleOAuth();
  vertex = await startFakeVertex(oauth.ledger);
  previousHost = process.env.GCE_METADATA_HOST;
  process.env.GCE_METADATA_HOST = oauth.metadataHost;
});
after(async () => {
  if (previousHost === undefined) delete process.env.GCE_METADATA_HOST;
  else process.env.GCE_METADATA_HOST = previousHost;
  await vertex.close();
  await oauth.close();
});

/** Google's client on Vertex AI at the fake, its token from the fake metadata server. */
function genaiOnVertex(): GoogleGenAI {
  return new GoogleGenAI({
    vertexai: true,
    project: GOOGLE_TEST.project,
    location: 'us-central1',
    googleAuthOptions: { authClient: new Compute() },
    httpOptions: { baseUrl: vertex.url, apiVersion: 'v1' },
  });
}

test('@google/genai on Vertex: generateContent and a stream under publishers/google with a fake-issued token', async () => {
  const ai = genaiOnVertex();
  vertex.queue({ toolCalls: [{ id: 'fc_1', name: 'lookup', input: { q: 'x' } }] });
  const out = await ai.models.generateContent({ model: 'gemini-2.5-pro', contents: 'Hi' });
  assert.equal(out.functionCalls?.[0]?.name, 'lookup');
  assert.equal(
    vertex.requests.at(-1)?.path,
    `/v1/projects/${GOOGLE_TEST.project}/locations/us-central1/publishers/google/models/gemini-2.5-pro:generateContent`,
  );
  let text = '';
  for await (const c of await ai.models.generateContentStream({ model: 'gemini-2.5-pro', contents: 'Hi' }))
    text += c.text ?? '';
  assert.equal(text, 'Hello from the fake cloud.');
});

test('@google/genai on Vertex: embedContent is :predict (text-embedding-005 batched, gemini-embedding-001 alone)', async () => {
  const ai = genaiOnVertex();
  const out = await ai.models.embedContent({
    model: 'text-embedding-005',
    contents: ['first text', 'second'],
    config: { outputDimensionality: 16, taskType: 'RETRIEVAL_DOCUMENT', autoTruncate: true },
  });
  assert.deepEqual(
    out.embeddings?.map((e) => [e.values?.length, e.statistics?.tokenCount, e.statistics?.truncated]),
    [
      [16, 3, false],
      [16, 2, false],
    ],
  );
  const sent = vertex.requests.at(-1);
  assert.equal(
    sent?.path,
    `/v1/projects/${GOOGLE_TEST.project}/locations/us-central1/publishers/google/models/text-embedding-005:predict`,
  );
  assert.deepEqual(sent?.body, {
    instances: [
      { content: 'first text', task_type: 'RETRIEVAL_DOCUMENT' },
      { content: 'second', task_type: 'RETRIEVAL_DOCUMENT' },
    ],
    parameters: { outputDimensionality: 16, autoTruncate: true },
  });
  assert.equal(out.metadata?.billableCharacterCount, 16);
  const gemini = await ai.models.embedContent({ model: 'gemini-embedding-001', contents: 'one' });
  assert.equal(gemini.embeddings?.[0]?.values?.length, 3072);
  assert.match(vertex.requests.at(-1)?.path ?? '', /gemini-embedding-001:predict$/);
  await assert.rejects(
    ai.models.embedContent({ model: 'gemini-embedding-001', contents: ['one', 'two'] }),
    /only 1 instance per request/,
  );
});

test(':predict is strict: an unknown field is INVALID_ARGUMENT, an unknown model NOT_FOUND, no token UNAUTHENTICATED', async () => {
  const path = (model: string) =>
    `/v1/projects/${GOOGLE_TEST.project}/locations/us-central1/publishers/google/models/${model}:predict`;
  const token = (await new Compute().getAccessToken()).token ?? '';
  const predict = async (body: unknown, model = 'text-embedding-005', auth: string | null = token) => {
    const res = await fetch(vertex.url + path(model), {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(auth === null ? {} : { authorization: `Bearer ${auth}` }) },
      body: JSON.stringify(body),
    });
    return { status: res.status, error: ((await res.json()) as { error?: { status: string; message: string } }).error };
  };
  const field = await predict({ instances: [{ content: 'x', input_type: 'query' }] });
  assert.equal(field.status, 400);
  assert.equal(field.error?.status, 'INVALID_ARGUMENT');
  assert.match(field.error?.message ?? '', /Unknown name "input_type" at 'instances\[0\]'/);
  const parameter = await predict({ instances: [{ content: 'x' }], parameters: { dimensions: 8 } });
  assert.match(parameter.error?.message ?? '', /Unknown name "dimensions" at 'parameters'/);
  assert.equal((await predict({ instances: [{ content: 'x' }], model: 'm' })).status, 400);
  assert.equal((await predict({ instances: [{ content: 'x' }] }, 'gemini-2.5-pro')).status, 404);
  assert.equal((await predict({ instances: [{ content: 'x' }] }, 'text-embedding-005', null)).status, 401);
  assert.equal((await predict({ instances: [{ content: 'x' }] }, 'text-embedding-005', 'ya29.forged')).status, 401);
  assert.equal((await predict({ instances: [{ content: 'x' }] })).status, 200);
});

/** Anthropic's Vertex client at the fake, its token from the fake metadata server. */
function claudeOnVertex(): AnthropicVertex {
  return new AnthropicVertex({
    projectId: GOOGLE_TEST.project,
    region: 'us-east5',
    baseURL: `${vertex.url}/v1`,
    googleAuth: new GoogleAuth({
      authClient: new Compute(),
      scopes: ['https://www.googleapis.com/auth/cloud-platform'],
    }),
    maxRetries: 0,
  });
}

test('@anthropic-ai/vertex-sdk: rawPredict and streamRawPredict under publishers/anthropic', async () => {
  const client = claudeOnVertex();
  vertex.queue({
    thinking: { text: 't', signature: 'sig-v' },
    usage: { input: 9, output: 2, cacheRead: 5, cacheWrite: 0, reasoning: 0 },
  });
  const model = 'claude-sonnet-4-5@20250929';
  const message = await client.messages.create({ model, max_tokens: 32, messages: [{ role: 'user', content: 'Hi' }] });
  assert.equal(message.content[0]?.type, 'thinking');
  assert.equal(message.usage.cache_read_input_tokens, 5);
  const sent = vertex.requests.at(-1);
  assert.equal(
    sent?.path,
    `/v1/projects/${GOOGLE_TEST.project}/locations/us-east5/publishers/anthropic/models/${model}:rawPredict`,
  );
  assert.equal(typeof sent?.body?.anthropic_version, 'string');
  assert.equal(sent?.body?.model, undefined);
  const final = await client.messages
    .stream({ model, max_tokens: 32, messages: [{ role: 'user', content: 'Hi' }] })
    .finalMessage();
  assert.equal(final.stop_reason, 'end_turn');
  assert.match(vertex.requests.at(-1)?.path ?? '', /:streamRawPredict$/);
});

test('Claude on Vertex: an error event mid-stream reaches the Anthropic SDK', async () => {
  const client = claudeOnVertex();
  vertex.queue({ fail: 'server', failMidStream: true });
  await assert.rejects(
    client.messages
      .stream({ model: 'claude-sonnet-4-5@20250929', max_tokens: 8, messages: [{ role: 'user', content: 'Hi' }] })
      .finalMessage(),
    /Overloaded|overloaded_error/,
  );
});

test('a missing or unknown token is UNAUTHENTICATED; another project PERMISSION_DENIED; throttling RESOURCE_EXHAUSTED', async () => {
  const path = `/v1/projects/${GOOGLE_TEST.project}/locations/us-central1/publishers/google/models/gemini-2.5-pro:generateContent`;
  const body = JSON.stringify({ contents: [{ role: 'user', parts: [{ text: 'x' }] }] });
  const call = (token: string | null, p = path): Promise<Response> =>
    fetch(vertex.url + p, {
      method: 'POST',
      headers: token === null ? {} : { authorization: `Bearer ${token}` },
      body,
    });
  assert.equal((await call(null)).status, 401);
  assert.equal((await call('ya29.forged')).status, 401);
  const token = (await new Compute().getAccessToken()).token ?? '';
  assert.equal((await call(token, path.replace(GOOGLE_TEST.project, 'other-project'))).status, 403);
  vertex.queue({ fail: 'throttle' });
  const throttled = await call(token);
  assert.equal(throttled.status, 429);
  assert.equal(((await throttled.json()) as { error: { status: string } }).error.status, 'RESOURCE_EXHAUSTED');
});
