// The AI SDK's `openai.responses()` with default options (store on: later steps send earlier
// output as item references), multi-step with a tool, through Switchyard to both upstream
// formats; the redaction guardrail holds on every step. Needs `@ai-sdk/openai` (skipped without it).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { generateText, jsonSchema, stepCountIs, tool, type LanguageModel } from 'ai';
import { FAKE_TEXT } from '../fake-upstream/index.js';
import { startAgentHarness, SECRET_EMAIL, type AgentHarness } from './agent-harness.js';

interface OpenAiProvider {
  responses(modelId: string): LanguageModel;
}
type CreateOpenAI = (options: { baseURL: string; apiKey: string; fetch?: typeof fetch }) => OpenAiProvider;

/** `@ai-sdk/openai`, when installed (its name in a variable: the build does not need it). */
async function loadProvider(): Promise<CreateOpenAI | null> {
  const specifier = '@ai-sdk/openai';
  try {
    const mod = (await import(specifier)) as { createOpenAI?: CreateOpenAI };
    return mod.createOpenAI ?? null;
  } catch {
    return null;
  }
}

const createOpenAI = await loadProvider();
const skip = createOpenAI === null ? '@ai-sdk/openai is not installed' : false;

describe('AI SDK openai.responses() through Switchyard', { skip }, () => {
  let h: AgentHarness;
  before(async () => {
    h = await startAgentHarness('sqlite');
  });
  after(() => h.close());

  for (const model of ['openai/gpt-test', 'anthropic/claude-test']) {
    it(`multi-step with a tool at default options on ${model}`, async () => {
      h.gw.fake.reset();
      h.gw.fake.queue('tool-call');
      const sent: string[] = [];
      const openai = (createOpenAI as CreateOpenAI)({
        baseURL: h.gw.server.api,
        apiKey: h.key,
        fetch: (url, init) => {
          if (typeof init?.body === 'string') sent.push(init.body);
          return fetch(url, init);
        },
      });
      let calls = 0;
      const result = await generateText({
        model: openai.responses(model),
        prompt: `Weather in Paris? Then tell ${SECRET_EMAIL}.`,
        maxRetries: 0,
        stopWhen: stepCountIs(4),
        tools: {
          get_weather: tool({
            description: 'Weather of a city',
            inputSchema: jsonSchema<{ city: string }>({
              type: 'object',
              properties: { city: { type: 'string' } },
              required: ['city'],
            }),
            execute: () => {
              calls++;
              return Promise.resolve('sunny');
            },
          }),
        },
      });
      assert.equal(calls, 1);
      assert.equal(result.steps.length, 2);
      assert.equal(result.text, FAKE_TEXT);
      assert.equal(h.upstreamText().includes(SECRET_EMAIL), false, 'redacted on every step');
      // The Anthropic fake answers text beside its tool call: the SDK then refers to that stored
      // message by id instead of sending it again.
      if (model.startsWith('anthropic')) assert.match(sent[1] ?? '', /"item_reference"/);
    });
  }
});
