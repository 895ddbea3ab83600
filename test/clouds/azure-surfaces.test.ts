import assert from 'node:assert/strict';
import { beforeEach, it } from 'node:test';
import Anthropic from '@anthropic-ai/sdk';
import { createOpenAI } from '@ai-sdk/openai';
import { generateText } from 'ai';
import { AZURE_TEST } from '../fake-clouds/index.js';
import { azureSuites, type AzureGateway } from './azure-harness.js';

// Every other inbound surface to Azure OpenAI: /responses, /messages (translated), legacy
// completions (through chat), /embeddings on both API styles, and the AI SDK.

azureSuites('other surfaces to Azure OpenAI', (current) => {
  let gw: AzureGateway;
  const last = () => gw.azure.requests.at(-1);
  beforeEach(() => {
    gw = current();
  });

  it('/responses (JSON and stream) goes to Azure chat completions', async () => {
    const out = await gw.openai.responses.create({ model: 'openai/gpt-4o-key', input: 'Hi' });
    assert.equal(out.output_text, 'Hello from the fake cloud.');
    assert.equal(last()?.path, '/openai/deployments/gpt4o/chat/completions');
    gw.azure.queue({ toolCalls: [{ id: 'call_r', name: 'get_weather', input: { city: 'Rome' } }] });
    const stream = await gw.openai.responses.create({
      model: 'openai/gpt-4o-entra',
      input: 'Weather in Rome?',
      stream: true,
      tools: [
        {
          type: 'function',
          name: 'get_weather',
          strict: false,
          parameters: { type: 'object', properties: { city: { type: 'string' } } },
        },
      ],
    });
    let args = '';
    for await (const event of stream)
      if (event.type === 'response.function_call_arguments.done') args = event.arguments;
    assert.deepEqual(JSON.parse(args), { city: 'Rome' });
    assert.equal(last()?.path, '/openai/v1/chat/completions');
  });

  it('/messages with the Anthropic client: text, tool use and stop reasons', async () => {
    const anthropic = new Anthropic({ baseURL: gw.server.url + '/api', apiKey: gw.apiKey, maxRetries: 0 });
    const text = await anthropic.messages.create({
      model: 'openai/gpt-4o-key',
      max_tokens: 100,
      system: 'Be brief.',
      messages: [{ role: 'user', content: 'Hi' }],
    });
    assert.equal(text.stop_reason, 'end_turn');
    const block = text.content[0];
    assert.equal(block?.type === 'text' ? block.text : null, 'Hello from the fake cloud.');
    assert.equal(text.usage.input_tokens, 12);
    const sent = last()?.body?.messages as { role: string; content: unknown }[];
    assert.equal(sent[0]?.role, 'system');
    gw.azure.queue({ toolCalls: [{ id: 'call_m', name: 'get_weather', input: { city: 'Lima' } }] });
    const stream = anthropic.messages.stream({
      model: 'openai/gpt-4o-entra',
      max_tokens: 100,
      messages: [{ role: 'user', content: 'Weather in Lima?' }],
      tools: [{ name: 'get_weather', input_schema: { type: 'object', properties: { city: { type: 'string' } } } }],
    });
    const final = await stream.finalMessage();
    assert.equal(final.stop_reason, 'tool_use');
    const use = final.content.find((b) => b.type === 'tool_use');
    assert.deepEqual(use?.type === 'tool_use' ? use.input : null, { city: 'Lima' });
    gw.azure.queue({ stop: 'max_tokens' });
    const cut = await anthropic.messages.create({
      model: 'openai/gpt-4o-key',
      max_tokens: 5,
      messages: [{ role: 'user', content: 'Hi' }],
    });
    assert.equal(cut.stop_reason, 'max_tokens');
  });

  it('legacy completions go through Azure chat', async () => {
    const out = await gw.openai.completions.create({
      model: 'openai/gpt-4o-key',
      prompt: 'Say hello',
      max_tokens: 20,
    });
    assert.equal(out.choices[0]?.text, 'Hello from the fake cloud.');
    assert.equal(last()?.path, '/openai/deployments/gpt4o/chat/completions');
    const messages = last()?.body?.messages as { role: string; content: string }[];
    assert.deepEqual(messages, [{ role: 'user', content: 'Say hello' }]);
  });

  it('/embeddings on a dated deployment (api-key) and on v1 (Entra), base64 and floats', async () => {
    const keyed = await gw.openai.embeddings.create({
      model: 'openai/text-embedding-3-small',
      input: ['a', 'b'],
      dimensions: 8,
    });
    assert.equal(keyed.data.length, 2);
    assert.equal(keyed.data[1]?.embedding.length, 8);
    assert.equal(last()?.path, '/openai/deployments/embed/embeddings');
    assert.equal(last()?.query.get('api-version'), '2024-10-21');
    assert.equal(last()?.headers['api-key'], AZURE_TEST.apiKey);
    const entra = await gw.openai.embeddings.create({
      model: 'openai/text-embedding-3-small-entra',
      input: 'a',
      dimensions: 4,
      encoding_format: 'float',
    });
    assert.equal(entra.data[0]?.embedding.length, 4);
    assert.equal(last()?.path, '/openai/v1/embeddings');
    assert.equal(last()?.body?.model, 'embed');
    assert.ok(entra.usage.prompt_tokens > 0);
  });

  it('the AI SDK (chat) through Switchyard to Azure', async () => {
    const provider = createOpenAI({ baseURL: gw.server.api, apiKey: gw.apiKey });
    const out = await generateText({ model: provider.chat('openai/gpt-4o-entra'), prompt: 'Hi', maxRetries: 0 });
    assert.equal(out.text, 'Hello from the fake cloud.');
    assert.equal(out.finishReason, 'stop');
    assert.equal(out.usage.inputTokens, 12);
  });

  it('a mid-stream 429 error event ends the client stream with an error, not a silent cut', async () => {
    gw.azure.queue({ fail: 'throttle', failMidStream: true });
    const stream = await gw.openai.chat.completions.create({
      model: 'openai/gpt-4o-key',
      stream: true,
      messages: [{ role: 'user', content: 'Hi' }],
    });
    await assert.rejects(async () => {
      for await (const _ of stream) void _;
    });
  });
});
