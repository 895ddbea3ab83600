import assert from 'node:assert/strict';
import { beforeEach, it } from 'node:test';
import OpenAI from 'openai';
import { AZURE_TEST, COGNITIVE_AUDIENCE } from '../fake-clouds/index.js';
import { call } from '../support/server.js';
import { azureSuites, AZURE_PRICES, WRONG_KEY, keyWithGuardrail, type AzureGateway } from './azure-harness.js';

// Chat through Switchyard to Azure OpenAI (the fake resource, strict about URL, api-version and
// credential): the official openai client in, both Azure API styles and both auth modes out.

const WEATHER: OpenAI.ChatCompletionTool = {
  type: 'function',
  function: {
    name: 'get_weather',
    description: 'Weather of a city',
    parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
  },
};
const PNG =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

const near = (a: number, b: number) => Math.abs(a - b) < 1e-12;

azureSuites('chat to Azure OpenAI through Switchyard', (current) => {
  let gw: AzureGateway;
  const last = () => gw.azure.requests.at(-1);
  beforeEach(() => {
    gw = current();
  });

  it('api-key on a dated API version: tools round trip, the deployment URL, usage and cost recorded', async () => {
    gw.azure.queue({ toolCalls: [{ id: 'call_1', name: 'get_weather', input: { city: 'Paris' } }] });
    const first = await gw.openai.chat.completions.create({
      model: 'openai/gpt-4o-key',
      messages: [{ role: 'user', content: 'Weather in Paris?' }],
      tools: [WEATHER],
    });
    assert.equal(first.choices[0]?.finish_reason, 'tool_calls');
    const toolCall = first.choices[0]?.message.tool_calls?.[0];
    assert.ok(toolCall?.type === 'function');
    assert.equal(toolCall.function.name, 'get_weather');
    assert.deepEqual(JSON.parse(toolCall.function.arguments), { city: 'Paris' });
    const sent = last();
    assert.equal(sent?.path, '/openai/deployments/gpt4o/chat/completions');
    assert.equal(sent?.query.get('api-version'), '2024-10-21');
    assert.equal(sent?.headers['api-key'], AZURE_TEST.apiKey);
    assert.equal(sent?.headers.authorization, undefined, 'the key goes in api-key only');
    assert.equal((sent?.body?.tools as unknown[] | undefined)?.length, 1);

    gw.azure.queue({
      text: 'It is sunny in Paris.',
      usage: { input: 40, output: 6, cacheRead: 0, cacheWrite: 0, reasoning: 0 },
    });
    const second = await gw.openai.chat.completions.create({
      model: 'openai/gpt-4o-key',
      messages: [
        { role: 'user', content: 'Weather in Paris?' },
        { role: 'assistant', content: null, tool_calls: [toolCall] },
        { role: 'tool', tool_call_id: toolCall.id, content: '{"sky":"sunny"}' },
      ],
      tools: [WEATHER],
    });
    assert.equal(second.choices[0]?.message.content, 'It is sunny in Paris.');
    assert.equal(second.choices[0]?.finish_reason, 'stop');
    const messages = last()?.body?.messages as { role: string; tool_call_id?: string }[];
    assert.deepEqual(
      messages.map((m) => m.role),
      ['user', 'assistant', 'tool'],
    );
    assert.equal(messages[2]?.tool_call_id, 'call_1');
    assert.equal(second.usage?.prompt_tokens, 40);
    const cost = 40 * AZURE_PRICES.key.prompt + 6 * AZURE_PRICES.key.completion;
    assert.ok(near((second.usage as unknown as { cost: number }).cost, cost));
    const gen = await call<{ data: Record<string, unknown> }>(gw.server, 'GET', `/generation?id=${second.id}`, {
      token: gw.apiKey,
    });
    assert.equal(gen.status, 200);
    assert.equal(gen.body.data.tokens_prompt, 40);
    assert.equal(gen.body.data.tokens_completion, 6);
    assert.equal(gen.body.data.provider_name, 'azure-key');
    assert.ok(near(gen.body.data.total_cost as number, cost));
  });

  it('Entra ID on the v1 API: a managed-identity token as bearer, the deployment as the body model; a stream with tools', async () => {
    gw.azure.queue({
      pieces: ['Checking', ' the weather.'],
      toolCalls: [{ id: 'call_9', name: 'get_weather', input: { city: 'Oslo' } }],
    });
    const stream = await gw.openai.chat.completions.create({
      model: 'openai/gpt-4o-entra',
      stream: true,
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'What is in this image?' },
            { type: 'image_url', image_url: { url: PNG } },
          ],
        },
      ],
      tools: [WEATHER],
    });
    let text = '';
    let args = '';
    let finish: string | null = null;
    let usage: OpenAI.CompletionUsage | undefined;
    for await (const chunk of stream) {
      const choice = chunk.choices[0];
      text += choice?.delta.content ?? '';
      args += choice?.delta.tool_calls?.[0]?.function?.arguments ?? '';
      finish = choice?.finish_reason ?? finish;
      usage = chunk.usage ?? usage;
    }
    assert.equal(text, 'Checking the weather.');
    assert.deepEqual(JSON.parse(args), { city: 'Oslo' });
    assert.equal(finish, 'tool_calls');
    assert.equal(usage?.total_tokens, 17);
    const sent = last();
    assert.equal(sent?.path, '/openai/v1/chat/completions');
    assert.equal(sent?.body?.model, 'gpt4o');
    assert.equal(sent?.headers['api-key'], undefined);
    const bearer = String(sent?.headers.authorization).replace(/^Bearer /, '');
    assert.equal(gw.entra.ledger.isValid(bearer, COGNITIVE_AUDIENCE), true, 'an Entra token for Cognitive Services');
    const parts = (sent?.body?.messages as { content: { type: string; image_url?: { url: string } }[] }[])[0]?.content;
    assert.equal(parts?.[1]?.image_url?.url, PNG, 'the image reaches Azure as sent');
  });

  it("Azure's content filter: a filtered completion is a content_filter finish, a filtered prompt a 400", async () => {
    gw.azure.queue({ stop: 'content_filter' });
    const json = await gw.openai.chat.completions.create({
      model: 'openai/gpt-4o-key',
      messages: [{ role: 'user', content: 'Hi' }],
    });
    assert.equal(json.choices[0]?.finish_reason, 'content_filter');
    gw.azure.queue({ stop: 'content_filter' });
    const stream = await gw.openai.chat.completions.create({
      model: 'openai/gpt-4o-entra',
      stream: true,
      messages: [{ role: 'user', content: 'Hi' }],
    });
    let finish: string | null = null;
    for await (const chunk of stream) finish = chunk.choices[0]?.finish_reason ?? finish;
    assert.equal(finish, 'content_filter');
    gw.azure.queue({ fail: 'prompt_filter' });
    await assert.rejects(
      gw.openai.chat.completions.create({ model: 'openai/gpt-4o-key', messages: [{ role: 'user', content: 'Hi' }] }),
      (e: unknown) => {
        assert.ok(e instanceof OpenAI.APIError);
        assert.equal(e.status, 400);
        assert.match(e.message, /content management policy/);
        return true;
      },
    );
  });

  it('a 429 with retry-after falls back to the next Azure endpoint; a validation error is a 400 with its message', async () => {
    gw.azure.queue({ fail: 'throttle' });
    const out = await gw.openai.chat.completions.create({
      model: 'openai/gpt-4o',
      messages: [{ role: 'user', content: 'Hi' }],
    });
    assert.equal(out.choices[0]?.message.content, 'Hello from the fake cloud.');
    const paths = gw.azure.requests.map((r) => r.path);
    assert.deepEqual(paths, ['/openai/deployments/gpt4o/chat/completions', '/openai/v1/chat/completions']);
    const gen = await call<{ data: Record<string, unknown> }>(gw.server, 'GET', `/generation?id=${out.id}`, {
      token: gw.apiKey,
    });
    assert.equal(gen.body.data.provider_name, 'azure-entra');
    gw.azure.queue({ fail: 'validation' });
    await assert.rejects(
      gw.openai.chat.completions.create({ model: 'openai/gpt-4o-key', messages: [{ role: 'user', content: 'Hi' }] }),
      (e: unknown) => e instanceof OpenAI.APIError && e.status === 400 && /maximum context length/.test(e.message),
    );
  });

  it('a key the resource refuses: a 502 naming the provider, never the key', async () => {
    const res = await call<{ error: { code: number; message: string } }>(gw.server, 'POST', '/chat/completions', {
      token: gw.apiKey,
      body: { model: 'openai/gpt-4o-badkey', messages: [{ role: 'user', content: 'Hi' }] },
    });
    assert.equal(res.status, 502, JSON.stringify(res.body));
    const text = JSON.stringify(res.body);
    assert.ok(!text.includes(WRONG_KEY) && !text.includes(AZURE_TEST.apiKey), text);
  });

  it('JSON mode reaches Azure as sent; fields Azure does not define are cut', async () => {
    const format = { type: 'json_schema', json_schema: { name: 'reply', schema: { type: 'object' } } };
    const res = await call(gw.server, 'POST', '/chat/completions', {
      token: gw.apiKey,
      body: {
        model: 'openai/gpt-4o-key',
        messages: [{ role: 'user', content: 'Hi' }],
        response_format: format,
        web_search_options: {},
        seed: 7,
      },
    });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const sent = last()?.body;
    assert.deepEqual(sent?.response_format, format);
    assert.equal(sent?.seed, 7);
    assert.equal(sent?.web_search_options, undefined);
  });

  it('a redacting guardrail: Azure receives the redaction', async () => {
    const key = await keyWithGuardrail(gw, { content_filter_builtins: [{ slug: 'email', action: 'redact' }] });
    const client = new OpenAI({ baseURL: gw.server.api, apiKey: key, maxRetries: 0 });
    await client.chat.completions.create({
      model: 'openai/gpt-4o-entra',
      messages: [{ role: 'user', content: 'Write to jane.doe@example.com please' }],
    });
    const sent = JSON.stringify(last()?.body);
    assert.ok(!sent.includes('jane.doe@example.com'), sent);
    assert.match(sent, /\[EMAIL\]/);
  });
});
