import assert from 'node:assert/strict';
import { beforeEach, it } from 'node:test';
import { AZURE_TEST } from '../fake-clouds/index.js';
import { call } from '../support/server.js';
import { AZURE_PRICES, azureSuites, type AzureGateway } from './azure-harness.js';

// Azure's Responses API natively: a v1 provider that declares `native_responses` is sent the
// client's /responses body at {base_url}/openai/v1/responses (the deployment as `model`); the
// fake refuses anything but a Responses body there.

const MODEL = 'openai/gpt-4o-responses';

azureSuites('native Responses to Azure OpenAI', (current) => {
  let gw: AzureGateway;
  const last = () => gw.azure.requests.at(-1);
  beforeEach(() => {
    gw = current();
  });

  it('JSON: the body goes as written to /openai/v1/responses with the api-key; usage priced', async () => {
    gw.azure.queue({
      text: 'Native from Azure.',
      usage: { input: 20, output: 4, cacheRead: 0, cacheWrite: 0, reasoning: 0 },
    });
    const out = await gw.openai.responses.create({
      model: MODEL,
      instructions: 'Be brief.',
      input: [{ role: 'user', content: 'Hi' }],
      metadata: { team: 'platform' },
    });
    assert.equal(out.output_text, 'Native from Azure.');
    const upstream = last();
    assert.equal(upstream?.path, '/openai/v1/responses');
    assert.equal(upstream?.query.get('api-version'), null);
    assert.equal(upstream?.headers['api-key'], AZURE_TEST.apiKey);
    assert.equal(upstream?.body?.model, 'gpt4o', 'the deployment is the model');
    assert.equal(upstream?.body?.instructions, 'Be brief.');
    assert.deepEqual(upstream?.body?.input, [{ role: 'user', content: 'Hi' }]);
    assert.deepEqual(upstream?.body?.metadata, { team: 'platform' });
    assert.equal(upstream?.body?.messages, undefined, 'not translated to chat');
    const gen = await call<{ data: Record<string, unknown> }>(gw.server, 'GET', `/generation?id=${out.id}`, {
      token: gw.apiKey,
    });
    assert.equal(gen.status, 200);
    assert.equal(gen.body.data.provider_name, 'azure-responses');
    assert.equal(gen.body.data.tokens_prompt, 20);
    const expected = AZURE_PRICES.responses.prompt * 20 + AZURE_PRICES.responses.completion * 4;
    assert.ok(Math.abs((gen.body.data.total_cost as number) - expected) < 1e-12);
  });

  it('stream: Azure events reach the client; the text and the completed usage', async () => {
    const stream = await gw.openai.responses.create({ model: MODEL, input: 'Hi', stream: true });
    let text = '';
    let completed: { usage?: { input_tokens: number } | null } | null = null;
    for await (const event of stream) {
      if (event.type === 'response.output_text.delta') text += event.delta;
      if (event.type === 'response.completed') completed = event.response;
    }
    assert.equal(text, 'Hello from the fake cloud.');
    assert.equal(completed?.usage?.input_tokens, 12);
    assert.equal(last()?.path, '/openai/v1/responses');
    assert.equal(last()?.body?.stream, true);
  });

  it('throttled, the native endpoint falls back to a dated deployment, translated to chat', async () => {
    gw.azure.queue({ fail: 'throttle' });
    const out = await gw.openai.responses.create({ model: MODEL, input: 'Hi' });
    assert.equal(out.output_text, 'Hello from the fake cloud.');
    assert.deepEqual(
      gw.azure.requests.map((r) => r.path),
      ['/openai/v1/responses', '/openai/deployments/gpt4o/chat/completions'],
    );
  });

  it('chat completions to the same endpoint still go to chat, not to /responses', async () => {
    const res = await gw.openai.chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'Hi' }] });
    assert.equal(res.choices[0]?.message.content, 'Hello from the fake cloud.');
    assert.equal(last()?.path, '/openai/v1/chat/completions');
  });
});
