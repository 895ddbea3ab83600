import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import OpenAI from 'openai';
import { OPENAI_RESPONSES_FIELDS } from '../../src/wire/openai-responses/outbound/declaration.js';
import { FAKE_TEXT, FAKE_TOOL_ARGS, FAKE_USAGE } from '../fake-upstream/behaviour.js';
import { openAiResponsesFields } from '../fake-upstream/openai-declared.js';
import { FAKE_REASONING } from '../fake-upstream/responses-wire.js';
import { startFakeUpstream, type FakeUpstream } from '../fake-upstream/index.js';

// The fake OpenAI upstream's /v1/responses proven faithful with the `openai` SDK, strict as
// OpenAI is (an unknown argument is a 400), and the gateway's declaration of what it accepts
// equal to the SDK's own type declarations.

let fake: FakeUpstream;
let client: OpenAI;
before(async () => {
  fake = await startFakeUpstream();
  client = new OpenAI({ baseURL: `${fake.url}/v1`, apiKey: 'sk-fake', maxRetries: 0 });
});
after(() => fake.close());

const sorted = (values: Iterable<string>) => [...values].sort();

test('the declared Responses fields are exactly those of ResponseCreateParams', () => {
  assert.deepEqual(sorted(OPENAI_RESPONSES_FIELDS), sorted(openAiResponsesFields()));
});

test('a response: output text, usage, the request echoed (hosted tools too)', async () => {
  const out = await client.responses.create({
    model: 'gpt-fake',
    input: 'hi',
    instructions: 'Be brief.',
    tools: [{ type: 'web_search' }],
  });
  assert.equal(out.output_text, FAKE_TEXT);
  assert.equal(out.usage?.input_tokens, FAKE_USAGE.prompt_tokens);
  assert.equal(out.usage?.output_tokens, FAKE_USAGE.completion_tokens);
  assert.deepEqual(out.tools, [{ type: 'web_search' }]);
  assert.equal(fake.requests.at(-1)?.path, '/v1/responses');
});

test('a stream: typed, numbered events the SDK assembles into the final response', async () => {
  const stream = client.responses.stream({
    model: 'gpt-fake/tool-call',
    input: 'weather?',
    tools: [{ type: 'function', name: 'weather', parameters: { type: 'object', properties: {} }, strict: false }],
  });
  const seen: number[] = [];
  let args = '';
  for await (const event of stream) {
    seen.push(event.sequence_number);
    if (event.type === 'response.function_call_arguments.delta') args += event.delta;
  }
  const final = await stream.finalResponse();
  assert.deepEqual(
    seen,
    seen.map((_, i) => i),
    'sequence numbers count from 0',
  );
  assert.equal(args, FAKE_TOOL_ARGS);
  const call = final.output.find((item) => item.type === 'function_call');
  assert.equal(call?.type === 'function_call' ? call.name : '', 'weather');
  assert.equal(final.status, 'completed');
});

test('reasoning.encrypted_content asked for: a reasoning item carries it', async () => {
  const out = await client.responses.create({
    model: 'gpt-fake',
    input: 'hi',
    include: ['reasoning.encrypted_content'],
  });
  const reasoning = out.output.find((item) => item.type === 'reasoning');
  assert.equal(reasoning?.type === 'reasoning' ? reasoning.encrypted_content : null, FAKE_REASONING);
});

test('strict as OpenAI: an unknown argument, or a previous response it never kept, is a 400', async () => {
  await assert.rejects(
    client.responses.create({ model: 'gpt-fake', input: 'hi', client_metadata: { a: 1 } } as never),
    (e: unknown) => e instanceof OpenAI.APIError && e.status === 400 && /client_metadata/.test(e.message),
  );
  await assert.rejects(
    client.responses.create({ model: 'gpt-fake', input: 'hi', previous_response_id: 'resp_x' }),
    (e: unknown) => e instanceof OpenAI.APIError && e.status === 400,
  );
});

test('a mid-stream error event: the SDK hands it out as an `error` event, no completion follows', async () => {
  const stream = await client.responses.create({ model: 'gpt-fake/mid-stream-error', input: 'hi', stream: true });
  const types: string[] = [];
  for await (const event of stream) types.push(event.type);
  assert.equal(types.at(-1), 'error');
  assert.ok(!types.includes('response.completed'));
});
