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

test('@google/genai on Vertex: generateContent and a stream under publishers/google with a fake-issued token', async () => {
  const ai = new GoogleGenAI({
    vertexai: true,
    project: GOOGLE_TEST.project,
    location: 'us-central1',
    googleAuthOptions: { authClient: new Compute() },
    httpOptions: { baseUrl: vertex.url, apiVersion: 'v1' },
  });
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
