import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { createOpenAI } from '@ai-sdk/openai';
import { embedMany, generateText } from 'ai';
import { call, dialects } from '../support/server.js';
import {
  CLAUDE_ID,
  COHERE_ID,
  NOVA_ID,
  TITAN_ID,
  startBedrockGateway,
  type BedrockGateway,
} from './bedrock-harness.js';

// Anthropic's client through Switchyard to Claude on Bedrock (natively, InvokeModel), and to a
// model that is not Claude (translated, Converse); embeddings through InvokeModel; the AI SDK.

type Json = Record<string, unknown>;

for (const dialect of dialects()) {
  describe(`Bedrock InvokeModel through Switchyard (${dialect})`, () => {
    let gw: BedrockGateway;
    let anthropic: Anthropic;
    let openai: OpenAI;
    const last = () => gw.fake.requests.at(-1);
    const sentBody = () => last()?.body ?? {};

    before(async () => {
      gw = await startBedrockGateway(dialect);
      anthropic = new Anthropic({ apiKey: gw.apiKey, baseURL: `${gw.server.url}/api`, maxRetries: 0 });
      openai = new OpenAI({ apiKey: gw.apiKey, baseURL: gw.server.api, maxRetries: 0 });
    });
    after(() => gw.close());
    beforeEach(() => gw.fake.reset());

    it('/messages to Claude goes natively through InvokeModel: cache_control, betas and thinking kept', async () => {
      gw.fake.queue({
        text: 'Native answer.',
        thinking: { text: 'Thinking natively.', signature: 'sig-native-1' },
        usage: { input: 10, output: 6, cacheRead: 100, cacheWrite: 0, reasoning: 0 },
      });
      const message = await anthropic.messages.create(
        {
          model: 'anthropic/claude-sonnet-4.5',
          max_tokens: 2048,
          thinking: { type: 'enabled', budget_tokens: 1024 },
          system: [{ type: 'text', text: 'Long cached system prompt.', cache_control: { type: 'ephemeral' } }],
          messages: [{ role: 'user', content: 'Hi' }],
        },
        {
          headers: { 'anthropic-beta': 'claude-code-20250219,context-1m-2025-08-07, interleaved-thinking-2025-05-14' },
        },
      );
      assert.equal(last()?.path, `/model/${CLAUDE_ID}/invoke`);
      const body = sentBody();
      assert.equal(body.anthropic_version, 'bedrock-2023-05-31');
      assert.deepEqual(
        body.anthropic_beta,
        ['context-1m-2025-08-07', 'interleaved-thinking-2025-05-14'],
        "Bedrock's flags kept, Claude Code's own (which Bedrock refuses) left out",
      );
      assert.equal(body.model, undefined, 'the model is in the path');
      assert.deepEqual((body.system as Json[])[0]?.cache_control, { type: 'ephemeral' });
      assert.deepEqual(body.thinking, { type: 'enabled', budget_tokens: 1024 });
      const thinking = message.content.find((b) => b.type === 'thinking');
      assert.equal(thinking?.type === 'thinking' ? thinking.signature : null, 'sig-native-1');
      assert.equal(message.usage.cache_read_input_tokens, 100);
      assert.equal(message.stop_reason, 'end_turn');
    });

    it('/messages streamed natively through InvokeModelWithResponseStream: events, signature and usage', async () => {
      gw.fake.queue({
        text: 'Streamed natively.',
        thinking: { text: 'Hmm.', signature: 'sig-native-2' },
        toolCalls: [{ id: 'toolu_1', name: 'lookup', input: { q: 'x' } }],
      });
      const stream = anthropic.messages.stream({
        model: 'anthropic/claude-sonnet-4.5',
        max_tokens: 512,
        tools: [{ name: 'lookup', input_schema: { type: 'object' } }],
        messages: [{ role: 'user', content: 'Hi' }],
      });
      const final = await stream.finalMessage();
      assert.equal(last()?.path, `/model/${CLAUDE_ID}/invoke-with-response-stream`);
      const text = final.content.find((b) => b.type === 'text');
      assert.equal(text?.type === 'text' ? text.text : null, 'Streamed natively.');
      const thinking = final.content.find((b) => b.type === 'thinking');
      assert.equal(thinking?.type === 'thinking' ? thinking.signature : null, 'sig-native-2');
      const tool = final.content.find((b) => b.type === 'tool_use');
      assert.deepEqual(tool?.type === 'tool_use' ? tool.input : null, { q: 'x' });
      assert.equal(final.stop_reason, 'tool_use');
      assert.equal(final.usage.output_tokens, 5);
      assert.equal(JSON.stringify(final).includes('amazon-bedrock-invocationMetrics'), false);
    });

    it('/messages to a model that is not Claude is translated into Converse', async () => {
      const message = await anthropic.messages.create({
        model: 'amazon/nova-pro',
        max_tokens: 100,
        system: 'Be brief.',
        messages: [{ role: 'user', content: 'Hi' }],
      });
      assert.equal(last()?.path, `/model/${NOVA_ID}/converse`);
      assert.deepEqual(sentBody().system, [{ text: 'Be brief.' }]);
      const text = message.content.find((b) => b.type === 'text');
      assert.equal(text?.type === 'text' ? text.text : null, 'Hello from the fake cloud.');
    });

    it('a native /messages call falls back on throttling to the API-key endpoint', async () => {
      gw.fake.queue({ fail: 'throttle' });
      const message = await anthropic.messages.create({
        model: 'anthropic/claude-sonnet-4.5',
        max_tokens: 100,
        messages: [{ role: 'user', content: 'Hi' }],
      });
      assert.equal(message.type, 'message');
      assert.equal(gw.fake.requests.length, 2);
      assert.match(String(gw.fake.requests[1]?.headers.authorization), /^Bearer /);
    });

    it('embeddings: Titan one text per call, Cohere in one call, vectors in order with usage', async () => {
      const titan = await openai.embeddings.create({
        model: 'amazon/titan-embed-text-v2',
        input: ['first text', 'second text'],
        dimensions: 256,
      });
      assert.equal(titan.data.length, 2);
      assert.equal(titan.data[0]?.embedding.length, 256);
      assert.deepEqual(
        gw.fake.requests.map((r) => [r.path, (r.body as Json).inputText]),
        [
          [`/model/${TITAN_ID}/invoke`, 'first text'],
          [`/model/${TITAN_ID}/invoke`, 'second text'],
        ],
      );
      assert.equal(titan.usage.prompt_tokens, 6);
      gw.fake.reset();
      const cohere = await openai.embeddings.create({ model: 'cohere/embed-english-v3', input: ['a', 'b', 'c'] });
      assert.equal(cohere.data.length, 3);
      assert.deepEqual(
        cohere.data.map((d) => d.index),
        [0, 1, 2],
      );
      assert.equal(gw.fake.requests.length, 1);
      assert.equal(last()?.path, `/model/${COHERE_ID}/invoke`);
      assert.deepEqual(sentBody().input_type, 'search_document');
      const invalid = await call(gw.server, 'POST', '/embeddings', {
        token: gw.apiKey,
        body: { model: 'amazon/titan-embed-text-v2', input: 'x', dimensions: 7 },
      });
      assert.equal(invalid.status, 400, 'Titan refuses the dimensions: its message is the 400');
      assert.match(JSON.stringify(invalid.body), /dimensions/);
    });

    it('legacy completions and /responses go through Converse too', async () => {
      const completion = await openai.completions.create({ model: 'amazon/nova-pro', prompt: 'Say hi' });
      assert.equal(completion.choices[0]?.text, 'Hello from the fake cloud.');
      assert.equal(last()?.path, `/model/${NOVA_ID}/converse`);
      const response = await openai.responses.create({
        model: 'amazon/nova-pro',
        instructions: 'Be brief.',
        input: 'Say hi',
      });
      assert.equal(response.output_text, 'Hello from the fake cloud.');
      assert.deepEqual(sentBody().system, [{ text: 'Be brief.' }]);
    });

    it('the AI SDK: text through Converse and embeddings through InvokeModel', async () => {
      const provider = createOpenAI({ apiKey: gw.apiKey, baseURL: gw.server.api });
      const { text } = await generateText({ model: provider.chat('amazon/nova-pro'), prompt: 'Hi' });
      assert.equal(text, 'Hello from the fake cloud.');
      const { embeddings } = await embedMany({
        model: provider.embedding('amazon/titan-embed-text-v2'),
        values: ['x', 'y'],
      });
      assert.equal(embeddings.length, 2);
    });
  });
}
