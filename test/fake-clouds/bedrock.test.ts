import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import {
  BedrockRuntimeClient,
  ConverseCommand,
  ConverseStreamCommand,
  InvokeModelCommand,
  type ConverseStreamOutput,
} from '@aws-sdk/client-bedrock-runtime';
import AnthropicBedrock from '@anthropic-ai/bedrock-sdk';
import { NodeHttpHandler } from '@smithy/node-http-handler';
import { AWS_TEST } from './credentials.js';
import { startFakeBedrock, type FakeBedrock } from './bedrock.js';

// The fake Bedrock proven faithful: AWS's own SDK and Anthropic's Bedrock SDK talk to it, and it
// checks their SigV4 signatures the way Bedrock does.

let fake: FakeBedrock;
before(async () => {
  fake = await startFakeBedrock();
});
after(() => fake.close());

function client(secretAccessKey: string = AWS_TEST.secretAccessKey): BedrockRuntimeClient {
  return new BedrockRuntimeClient({
    region: AWS_TEST.region,
    endpoint: fake.url,
    credentials: { accessKeyId: AWS_TEST.accessKeyId, secretAccessKey },
    maxAttempts: 1,
    // HTTP/1.1 (the SDK's default handler for this client is HTTP/2; Bedrock serves both).
    requestHandler: new NodeHttpHandler(),
  });
}

const MODEL = 'us.anthropic.claude-sonnet-4-5-20250929-v1:0';
const USER = [{ role: 'user' as const, content: [{ text: 'Hi' }] }];

test('Converse: text, reasoning with signature, tool use, stop reason and cache usage reach the AWS SDK', async () => {
  fake.queue({
    text: 'Checking the weather.',
    thinking: { text: 'The user wants weather.', signature: 'sig-abc' },
    toolCalls: [{ id: 'tooluse_1', name: 'get_weather', input: { city: 'Paris' } }],
    usage: { input: 30, output: 9, cacheRead: 20, cacheWrite: 4, reasoning: 0 },
  });
  const out = await client().send(
    new ConverseCommand({
      modelId: MODEL,
      system: [{ text: 'Be brief.' }],
      messages: [
        {
          role: 'user',
          content: [
            { text: 'Weather?' },
            { image: { format: 'png', source: { bytes: new Uint8Array([137, 80, 78, 71]) } } },
          ],
        },
      ],
      inferenceConfig: { maxTokens: 100, stopSequences: ['END'] },
      toolConfig: {
        tools: [{ toolSpec: { name: 'get_weather', inputSchema: { json: { type: 'object' } } } }],
        toolChoice: { auto: {} },
      },
    }),
  );
  assert.equal(out.stopReason, 'tool_use');
  const content = out.output?.message?.content ?? [];
  assert.equal(content[0]?.reasoningContent?.reasoningText?.signature, 'sig-abc');
  assert.equal(content[1]?.text, 'Checking the weather.');
  assert.deepEqual(content[2]?.toolUse?.input, { city: 'Paris' });
  assert.equal(out.usage?.cacheReadInputTokens, 20);
  assert.equal(out.usage?.cacheWriteInputTokens, 4);
  const seen = fake.requests.at(-1);
  assert.equal(seen?.path, `/model/${MODEL}/converse`);
  const image = (seen?.body?.messages as { content: { image?: { source: { bytes: string } } }[] }[])[0]?.content[1]
    ?.image;
  assert.equal(image?.source.bytes, Buffer.from([137, 80, 78, 71]).toString('base64'));
});

test('ConverseStream: the binary event stream decodes in the AWS SDK, usage last', async () => {
  fake.queue({ thinking: { text: 'hmm', signature: 'sig-1' }, toolCalls: [{ id: 't1', name: 'f', input: { a: 1 } }] });
  const out = await client().send(new ConverseStreamCommand({ modelId: MODEL, messages: USER }));
  const events: ConverseStreamOutput[] = [];
  for await (const e of out.stream ?? []) events.push(e);
  const text = events.map((e) => e.contentBlockDelta?.delta?.text ?? '').join('');
  assert.equal(text, 'Hello from the fake cloud.');
  assert.ok(events.some((e) => e.contentBlockDelta?.delta?.reasoningContent?.signature === 'sig-1'));
  assert.equal(events.find((e) => e.contentBlockStart)?.contentBlockStart?.start?.toolUse?.name, 'f');
  assert.equal(events.find((e) => e.messageStop)?.messageStop?.stopReason, 'tool_use');
  assert.equal(events.at(-1)?.metadata?.usage?.inputTokens, 12);
});

test('a wrong secret is refused with InvalidSignatureException; an unknown key with UnrecognizedClientException', async () => {
  await assert.rejects(
    client('not/the/right/secret').send(new ConverseCommand({ modelId: MODEL, messages: USER })),
    (e: Error) => {
      assert.equal(e.name, 'InvalidSignatureException');
      assert.match(e.message, /signature we calculated does not match/);
      return true;
    },
  );
  const stranger = new BedrockRuntimeClient({
    region: AWS_TEST.region,
    endpoint: fake.url,
    credentials: { accessKeyId: 'AKIAUNKNOWN000000000', secretAccessKey: 'x' },
    maxAttempts: 1,
    requestHandler: new NodeHttpHandler(),
  });
  await assert.rejects(stranger.send(new ConverseCommand({ modelId: MODEL, messages: USER })), {
    name: 'UnrecognizedClientException',
  });
  const wrongRegion = new BedrockRuntimeClient({
    region: 'eu-west-1',
    endpoint: fake.url,
    credentials: { accessKeyId: AWS_TEST.accessKeyId, secretAccessKey: AWS_TEST.secretAccessKey },
    maxAttempts: 1,
    requestHandler: new NodeHttpHandler(),
  });
  await assert.rejects(wrongRegion.send(new ConverseCommand({ modelId: MODEL, messages: USER })), {
    name: 'InvalidSignatureException',
  });
});

test('an unsigned request is refused; a Bedrock API key as bearer is accepted, a wrong one refused', async () => {
  const unsigned = await fetch(`${fake.url}/model/${encodeURIComponent(MODEL)}/converse`, {
    method: 'POST',
    body: JSON.stringify({ messages: USER }),
  });
  assert.equal(unsigned.status, 403);
  assert.match(unsigned.headers.get('x-amzn-errortype') ?? '', /^MissingAuthenticationTokenException/);
  const call = (key: string): Promise<Response> =>
    fetch(`${fake.url}/model/${encodeURIComponent(MODEL)}/converse`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ messages: USER }),
    });
  const good = await call(AWS_TEST.bedrockApiKey);
  assert.equal(good.status, 200);
  assert.equal(((await good.json()) as { stopReason: string }).stopReason, 'end_turn');
  const bad = await call('ABSKnot-a-real-key');
  assert.equal(bad.status, 403);
  assert.match(bad.headers.get('x-amzn-errortype') ?? '', /^AccessDeniedException/);
});

test('throttling, validation and a cut stream surface in the AWS SDK as Bedrock reports them', async () => {
  fake.queue({ fail: 'throttle' });
  await assert.rejects(client().send(new ConverseCommand({ modelId: MODEL, messages: USER })), {
    name: 'ThrottlingException',
  });
  await assert.rejects(
    client().send(new ConverseCommand({ modelId: MODEL, messages: [{ role: 'assistant', content: [{ text: 'x' }] }] })),
    (e: Error) => e.name === 'ValidationException' && /start with a user message/.test(e.message),
  );
  fake.queue({ fail: 'throttle', failMidStream: true });
  const mid = await client().send(new ConverseStreamCommand({ modelId: MODEL, messages: USER }));
  await assert.rejects(
    async () => {
      for await (const _ of mid.stream ?? []) void _;
    },
    { name: 'ThrottlingException' },
  );
  fake.queue({ cutAfterEvents: 2 });
  const cut = await client().send(new ConverseStreamCommand({ modelId: MODEL, messages: USER }));
  await assert.rejects(async () => {
    for await (const _ of cut.stream ?? []) void _;
  });
});

test('InvokeModel: Titan v2 and Cohere embeddings', async () => {
  const titan = await client().send(
    new InvokeModelCommand({
      modelId: 'amazon.titan-embed-text-v2:0',
      contentType: 'application/json',
      body: JSON.stringify({ inputText: 'hello', dimensions: 256 }),
    }),
  );
  const t = JSON.parse(Buffer.from(titan.body).toString('utf8')) as {
    embedding: number[];
    inputTextTokenCount: number;
  };
  assert.equal(t.embedding.length, 256);
  assert.equal(t.inputTextTokenCount, 2);
  const cohere = await client().send(
    new InvokeModelCommand({
      modelId: 'cohere.embed-english-v3',
      body: JSON.stringify({ texts: ['a', 'b'], input_type: 'search_document' }),
    }),
  );
  const c = JSON.parse(Buffer.from(cohere.body).toString('utf8')) as { embeddings: number[][]; response_type: string };
  assert.equal(c.embeddings.length, 2);
  assert.equal(c.response_type, 'embeddings_floats');
  await assert.rejects(
    client().send(
      new InvokeModelCommand({ modelId: 'cohere.embed-english-v3', body: JSON.stringify({ texts: ['a'] }) }),
    ),
    { name: 'ValidationException' },
  );
});

test('Anthropic Bedrock SDK: InvokeModel with anthropic_version and betas in the body, and the response stream', async () => {
  const anthropic = new AnthropicBedrock({
    awsAccessKey: AWS_TEST.accessKeyId,
    awsSecretKey: AWS_TEST.secretAccessKey,
    awsRegion: AWS_TEST.region,
    baseURL: fake.url,
    maxRetries: 0,
  });
  fake.queue({
    thinking: { text: 'think', signature: 'sig-x' },
    usage: { input: 10, output: 3, cacheRead: 7, cacheWrite: 1, reasoning: 0 },
  });
  const message = await anthropic.beta.messages.create({
    model: MODEL,
    max_tokens: 64,
    betas: ['interleaved-thinking-2025-05-14'],
    messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi', cache_control: { type: 'ephemeral' } }] }],
  });
  assert.equal(message.content[0]?.type, 'thinking');
  assert.equal(message.usage.cache_read_input_tokens, 7);
  const sent = fake.requests.at(-1);
  assert.equal(sent?.path, `/model/${MODEL}/invoke`);
  assert.equal(typeof sent?.body?.anthropic_version, 'string');
  assert.deepEqual(sent?.body?.anthropic_beta, ['interleaved-thinking-2025-05-14']);
  const stream = anthropic.messages.stream({
    model: MODEL,
    max_tokens: 64,
    messages: [{ role: 'user', content: 'Hi' }],
  });
  const final = await stream.finalMessage();
  assert.equal(final.content[0]?.type === 'text' ? final.content[0].text : '', 'Hello from the fake cloud.');
  assert.equal(final.stop_reason, 'end_turn');
  assert.equal(fake.requests.at(-1)?.path, `/model/${MODEL}/invoke-with-response-stream`);
  const wrong = new AnthropicBedrock({
    awsAccessKey: AWS_TEST.accessKeyId,
    awsSecretKey: 'wrong',
    awsRegion: AWS_TEST.region,
    baseURL: fake.url,
    maxRetries: 0,
  });
  const badVersion = await fetch(`${fake.url}/model/${MODEL}/invoke`, {
    method: 'POST',
    headers: { authorization: `Bearer ${AWS_TEST.bedrockApiKey}` },
    body: JSON.stringify({
      anthropic_version: 'vertex-2023-10-16',
      max_tokens: 8,
      messages: [{ role: 'user', content: 'Hi' }],
    }),
  });
  assert.equal(badVersion.status, 400);
  assert.match(badVersion.headers.get('x-amzn-errortype') ?? '', /^ValidationException/);
  await assert.rejects(
    wrong.messages.create({ model: MODEL, max_tokens: 8, messages: [{ role: 'user', content: 'Hi' }] }),
    { status: 403 },
  );
});
