import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import Anthropic from '@anthropic-ai/sdk';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { generateText, jsonSchema, streamText, tool } from 'ai';
import OpenAI from 'openai';
import { GEMINI_TEST, GOOGLE_TEST } from '../fake-clouds/index.js';
import { call, dialects } from '../support/server.js';
import { GOOGLE_PRICES, startGoogleGateway, type GoogleHarness } from './google-support.js';

type Json = Record<string, unknown>;
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
const near = (a: number, b: number) => Math.abs(a - b) < 1e-12;

for (const dialect of dialects()) {
  describe(`Gemini API and Vertex AI through Switchyard (${dialect})`, () => {
    let gw: GoogleHarness;
    let openai: OpenAI;
    const geminiBody = () => gw.gemini.requests.at(-1)?.body as Json;

    before(async () => {
      gw = await startGoogleGateway(dialect);
      openai = new OpenAI({ apiKey: gw.apiKey, baseURL: gw.server.api, maxRetries: 0 });
    });
    after(() => gw.close());
    beforeEach(() => gw.reset());

    it('chat JSON: system instruction, image inline, usage and cost; the key only in x-goog-api-key', async () => {
      const res = await openai.chat.completions.create({
        model: 'google/gemini-flash',
        max_tokens: 50,
        messages: [
          { role: 'system', content: 'Be brief.' },
          {
            role: 'user',
            content: [
              { type: 'text', text: 'What is this?' },
              { type: 'image_url', image_url: { url: `data:image/png;base64,${PNG}` } },
            ],
          },
        ],
      });
      assert.equal(res.choices[0]?.message.content, 'Hello from the fake cloud.');
      assert.equal(res.choices[0]?.finish_reason, 'stop');
      assert.equal(res.usage?.prompt_tokens, 12);
      assert.equal(res.usage?.completion_tokens, 5);
      const cost = (res.usage as unknown as { cost: number }).cost;
      assert.ok(near(cost, 12 * GOOGLE_PRICES.gemini.prompt + 5 * GOOGLE_PRICES.gemini.completion), String(cost));
      const upstream = gw.gemini.requests.at(-1);
      assert.equal(upstream?.path, '/v1beta/models/gemini-2.5-flash:generateContent');
      assert.equal(upstream?.headers['x-goog-api-key'], GEMINI_TEST.apiKey);
      assert.equal(upstream?.headers.authorization, undefined);
      const body = geminiBody();
      assert.deepEqual(body.systemInstruction, { parts: [{ text: 'Be brief.' }] });
      assert.deepEqual((body.contents as Json[])[0], {
        role: 'user',
        parts: [{ text: 'What is this?' }, { inlineData: { mimeType: 'image/png', data: PNG } }],
      });
      assert.deepEqual(body.generationConfig, { maxOutputTokens: 50 });
      const gen = await call<{ data: Json }>(gw.server, 'GET', `/generation?id=${res.id}`, { token: gw.apiKey });
      assert.equal(gen.status, 200);
      assert.equal(gen.body.data.tokens_prompt, 12);
      assert.equal(gen.body.data.provider_name, 'gemini');
    });

    it('chat stream: thoughts as reasoning, text, and usage with reasoning tokens in the last chunk', async () => {
      gw.gemini.queue({
        thinking: { text: 'Considering.', signature: 'sig-1' },
        usage: { input: 20, output: 5, reasoning: 7, cacheRead: 4, cacheWrite: 0 },
      });
      const stream = await openai.chat.completions.create({
        model: 'google/gemini-flash',
        stream: true,
        reasoning_effort: 'low',
        messages: [{ role: 'user', content: 'hi' }],
      });
      let text = '';
      let reasoning = '';
      let usage: OpenAI.CompletionUsage | undefined;
      let finish: string | null | undefined;
      for await (const chunk of stream) {
        const delta = chunk.choices[0]?.delta as { content?: string; reasoning?: string } | undefined;
        text += delta?.content ?? '';
        reasoning += delta?.reasoning ?? '';
        finish = chunk.choices[0]?.finish_reason ?? finish;
        if (chunk.usage) usage = chunk.usage;
      }
      assert.equal(text, 'Hello from the fake cloud.');
      assert.equal(reasoning, 'Considering.');
      assert.equal(finish, 'stop');
      assert.equal(usage?.completion_tokens, 12, 'answer and thoughts');
      assert.equal(usage?.completion_tokens_details?.reasoning_tokens, 7);
      assert.equal(gw.gemini.requests.at(-1)?.path, '/v1beta/models/gemini-2.5-flash:streamGenerateContent');
      assert.equal(gw.gemini.requests.at(-1)?.query.get('alt'), 'sse');
      const config = geminiBody().generationConfig as Json;
      assert.equal((config.thinkingConfig as Json).includeThoughts, true);
    });

    it('tools round trip: the call with its id and thought signature, the response named and signed back', async () => {
      const tools: OpenAI.ChatCompletionTool[] = [
        {
          type: 'function',
          function: {
            name: 'get_weather',
            description: 'Weather of a city',
            parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
          },
        },
      ];
      gw.gemini.queue({
        text: '',
        thinking: { text: 'Need the weather.', signature: 'sig-weather' },
        toolCalls: [{ id: 'fc_1', name: 'get_weather', input: { city: 'Paris' } }],
      });
      const first = await openai.chat.completions.create({
        model: 'google/gemini-flash',
        tools,
        tool_choice: 'required',
        messages: [{ role: 'user', content: 'Weather in Paris?' }],
      });
      const message = first.choices[0]?.message;
      assert.equal(first.choices[0]?.finish_reason, 'tool_calls');
      const toolCall = message?.tool_calls?.[0];
      assert.equal(toolCall?.id, 'fc_1');
      assert.equal(toolCall?.type === 'function' ? toolCall.function.name : '', 'get_weather');
      assert.deepEqual(JSON.parse(toolCall?.type === 'function' ? toolCall.function.arguments : '{}'), {
        city: 'Paris',
      });
      const sent = geminiBody();
      assert.deepEqual(sent.toolConfig, { functionCallingConfig: { mode: 'ANY' } });
      const declaration = ((sent.tools as Json[])[0]?.functionDeclarations as Json[])[0];
      assert.equal(declaration?.name, 'get_weather');
      assert.deepEqual((declaration?.parametersJsonSchema as Json).required, ['city']);

      const second = await openai.chat.completions.create({
        model: 'google/gemini-flash',
        tools,
        messages: [
          { role: 'user', content: 'Weather in Paris?' },
          message as OpenAI.ChatCompletionMessageParam,
          { role: 'tool', tool_call_id: 'fc_1', content: JSON.stringify({ temperature: 21 }) },
        ],
      });
      assert.equal(second.choices[0]?.message.content, 'Hello from the fake cloud.');
      const contents = geminiBody().contents as { role: string; parts: Json[] }[];
      assert.deepEqual(
        contents.map((c) => c.role),
        ['user', 'model', 'user'],
      );
      const call = contents[1]?.parts.find((p) => p.functionCall !== undefined);
      assert.deepEqual(call?.functionCall, { id: 'fc_1', name: 'get_weather', args: { city: 'Paris' } });
      assert.equal(call?.thoughtSignature, Buffer.from('sig-weather').toString('base64'));
      assert.deepEqual(contents[2]?.parts[0], {
        functionResponse: { id: 'fc_1', name: 'get_weather', response: { temperature: 21 } },
      });
    });

    it('MAX_TOKENS is a length finish; SAFETY a content-filter finish, not an error', async () => {
      gw.gemini.queue({ stop: 'max_tokens' });
      const cut = await openai.chat.completions.create({
        model: 'google/gemini-flash',
        messages: [{ role: 'user', content: 'hi' }],
      });
      assert.equal(cut.choices[0]?.finish_reason, 'length');
      gw.gemini.queue({ stop: 'safety', text: '' });
      const filtered = await openai.chat.completions.create({
        model: 'google/gemini-flash',
        messages: [{ role: 'user', content: 'hi' }],
      });
      assert.equal(filtered.choices[0]?.finish_reason, 'content_filter');
    });

    it('JSON mode and json_schema become responseMimeType and responseJsonSchema', async () => {
      const schema = { type: 'object', properties: { a: { type: 'string' } } };
      await openai.chat.completions.create({
        model: 'google/gemini-flash',
        response_format: { type: 'json_schema', json_schema: { name: 'x', schema } },
        messages: [{ role: 'user', content: 'hi' }],
      });
      const config = geminiBody().generationConfig as Json;
      assert.equal(config.responseMimeType, 'application/json');
      assert.deepEqual(config.responseJsonSchema, schema);
    });

    it('RESOURCE_EXHAUSTED on the Gemini API falls back to Vertex AI (with a token from the service account)', async () => {
      gw.gemini.queue({ fail: 'throttle' });
      const res = await openai.chat.completions.create({
        model: 'google/gemini-flash',
        messages: [{ role: 'user', content: 'hi' }],
      });
      assert.equal(res.choices[0]?.message.content, 'Hello from the fake cloud.');
      assert.equal((res as unknown as { provider: string }).provider, 'Google Vertex');
      const upstream = gw.vertex.requests.at(-1);
      assert.equal(
        upstream?.path,
        `/v1/projects/${GOOGLE_TEST.project}/locations/us-east5/publishers/google/models/gemini-2.5-flash:generateContent`,
      );
      assert.match(String(upstream?.headers.authorization), /^Bearer ya29\.fake-/);
      const cost = (res.usage as unknown as { cost: number }).cost;
      assert.ok(near(cost, 12 * GOOGLE_PRICES.vertex.prompt + 5 * GOOGLE_PRICES.vertex.completion));
    });

    it("INVALID_ARGUMENT is a 400 with Google's message; a refused credential a 502 that names no key", async () => {
      gw.gemini.queue({ fail: 'validation' });
      gw.vertex.queue({ fail: 'validation' });
      const bad = await call<{ error: { code: number; message: string } }>(gw.server, 'POST', '/chat/completions', {
        token: gw.apiKey,
        body: { model: 'google/gemini-flash', messages: [{ role: 'user', content: 'hi' }] },
      });
      assert.equal(bad.status, 400);
      assert.match(bad.body.error.message, /input token count exceeds/);
      assert.equal(gw.vertex.requests.length, 0, 'a validation error does not fall back');
      gw.reset();
      gw.gemini.queue({ fail: 'auth' });
      gw.vertex.queue({ fail: 'auth' });
      const denied = await call<{ error: { code: number; message: string } }>(gw.server, 'POST', '/chat/completions', {
        token: gw.apiKey,
        body: { model: 'google/gemini-flash', messages: [{ role: 'user', content: 'hi' }] },
      });
      assert.equal(denied.status, 502);
      assert.match(denied.body.error.message, /credentials/);
      assert.ok(!JSON.stringify(denied.body).includes(GEMINI_TEST.apiKey));
      assert.ok(!JSON.stringify(denied.body).includes('ya29.'));
    });

    it('a redacting guardrail: the Gemini API receives the redaction', async () => {
      const created = await call<{ key: string; data: { hash: string } }>(gw.server, 'POST', '/keys', {
        token: gw.server.managementToken,
        body: { name: 'redacted' },
      });
      const g = await call<{ data: { id: string } }>(gw.server, 'POST', '/guardrails', {
        token: gw.server.managementToken,
        body: { name: 'pii', content_filter_builtins: [{ slug: 'email', action: 'redact' }] },
      });
      assert.equal(g.status, 201, JSON.stringify(g.body));
      await call(gw.server, 'POST', `/guardrails/${g.body.data.id}/assignments/keys`, {
        token: gw.server.managementToken,
        body: { key_hashes: [created.body.data.hash] },
      });
      const res = await call(gw.server, 'POST', '/chat/completions', {
        token: created.body.key,
        body: { model: 'google/gemini-flash', messages: [{ role: 'user', content: 'mail jane.doe@example.com' }] },
      });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      const sent = JSON.stringify(geminiBody());
      assert.ok(!sent.includes('jane.doe@example.com'), sent);
      assert.match(sent, /\[EMAIL\]/);
    });

    it('legacy completions and /responses reach Gemini as generateContent', async () => {
      const completion = await openai.completions.create({ model: 'google/gemini-flash', prompt: 'Say hi' });
      assert.equal(completion.choices[0]?.text, 'Hello from the fake cloud.');
      assert.match(String(gw.gemini.requests.at(-1)?.path), /:generateContent$/);
      const response = await openai.responses.create({ model: 'google/gemini-flash', input: 'Say hi' });
      assert.equal(response.output_text, 'Hello from the fake cloud.');
      const streamed = await openai.responses.create({ model: 'google/gemini-flash', input: 'Say hi', stream: true });
      let text = '';
      for await (const event of streamed) if (event.type === 'response.output_text.delta') text += event.delta;
      assert.equal(text, 'Hello from the fake cloud.');
    });

    it('embeddings through batchEmbedContents', async () => {
      const res = await openai.embeddings.create({
        model: 'google/text-embedding-004',
        input: ['one', 'two'],
        dimensions: 8,
      });
      assert.equal(res.data.length, 2);
      assert.equal(res.data[0]?.embedding.length, 8);
      const upstream = gw.gemini.requests.at(-1);
      assert.equal(upstream?.path, '/v1beta/models/text-embedding-004:batchEmbedContents');
      assert.ok(res.usage.prompt_tokens > 0);
    });

    it('the AI SDK: text, a stream, and a tool call', async () => {
      const sy = createOpenAICompatible({ name: 'switchyard', baseURL: gw.server.api, apiKey: gw.apiKey });
      const text = await generateText({ model: sy.chatModel('google/gemini-flash'), prompt: 'hi', maxRetries: 0 });
      assert.equal(text.text, 'Hello from the fake cloud.');
      assert.equal(text.usage.inputTokens, 12);
      const streamed = streamText({ model: sy.chatModel('google/gemini-flash'), prompt: 'hi', maxRetries: 0 });
      let out = '';
      for await (const piece of streamed.textStream) out += piece;
      assert.equal(out, 'Hello from the fake cloud.');
      gw.gemini.queue({ text: '', toolCalls: [{ id: 'fc_9', name: 'get_weather', input: { city: 'Oslo' } }] });
      const withTool = await generateText({
        model: sy.chatModel('google/gemini-flash'),
        prompt: 'weather?',
        maxRetries: 0,
        tools: {
          get_weather: tool({
            description: 'w',
            inputSchema: jsonSchema<{ city: string }>({ type: 'object', properties: { city: { type: 'string' } } }),
          }),
        },
      });
      assert.deepEqual(withTool.toolCalls[0]?.input, { city: 'Oslo' });
      assert.equal(withTool.finishReason, 'tool-calls');
    });

    it('an error event mid-stream ends the stream with an error, after the text already sent', async () => {
      gw.gemini.queue({ fail: 'server', failMidStream: true });
      const stream = await openai.chat.completions.create({
        model: 'google/gemini-flash',
        stream: true,
        messages: [{ role: 'user', content: 'hi' }],
      });
      let text = '';
      await assert.rejects(async () => {
        for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
      });
      assert.ok(text.length > 0 && text.length < 'Hello from the fake cloud.'.length, text);
    });

    it("count_tokens to a Gemini model is Gemini's own countTokens", async () => {
      const client = new Anthropic({ apiKey: gw.apiKey, baseURL: `${gw.server.url}/api`, maxRetries: 0 });
      const counted = await client.messages.countTokens({
        model: 'google/gemini-flash',
        messages: [{ role: 'user', content: 'Count these words, please!' }],
      });
      const upstream = gw.gemini.requests.at(-1);
      assert.equal(upstream?.path, '/v1beta/models/gemini-2.5-flash:countTokens');
      assert.equal((upstream?.body?.generateContentRequest as Json).model, 'models/gemini-2.5-flash');
      assert.equal(
        counted.input_tokens,
        Math.ceil('Count these words, please!'.length / 4),
        'the fake counts four characters a token',
      );
    });
  });
}
