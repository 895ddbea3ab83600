import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { MessagesRequestBody, PresetFields } from '../../../canonical/index.js';
import { mergePresetIntoMessages } from './preset.js';

function version(config: Record<string, unknown>, systemPrompt = ''): PresetFields {
  return { config, systemPrompt };
}

const body = (extra: Partial<MessagesRequestBody> = {}): MessagesRequestBody => ({
  model: 'anthropic/claude-test',
  max_tokens: 2000,
  messages: [{ role: 'user', content: 'hi' }],
  ...extra,
});

test('a preset with reasoning brings extended thinking and leaves out its own temperature', () => {
  const merged = mergePresetIntoMessages(
    body(),
    version({ temperature: 0.2, top_k: 5, reasoning: { max_tokens: 1500 } }),
  );
  assert.deepEqual(merged.thinking, { type: 'enabled', budget_tokens: 1500 });
  assert.equal(merged.temperature, undefined);
  assert.equal(merged.top_k, undefined);
  assert.equal(merged.max_tokens, 2000, 'the body keeps its own max_tokens');
});

test("the body's own sampling fields stay beside thinking; a preset fills nothing the body set", () => {
  const merged = mergePresetIntoMessages(
    body({ temperature: 1, thinking: { type: 'enabled', budget_tokens: 1024 } }),
    version({ temperature: 0.2, top_p: 0.5, stop: 'END' }),
  );
  assert.equal(merged.temperature, 1);
  assert.deepEqual(merged.thinking, { type: 'enabled', budget_tokens: 1024 });
  assert.equal(merged.top_p, 0.5);
  assert.deepEqual(merged.stop_sequences, ['END']);
});

test('the system prompt comes first in every form of system; an empty one changes nothing', () => {
  const v = version({}, 'Be brief.');
  assert.equal(mergePresetIntoMessages(body(), v).system, 'Be brief.');
  const blocks: MessagesRequestBody['system'] = [{ type: 'text', text: 'B' } as { type: string }];
  assert.deepEqual(mergePresetIntoMessages(body({ system: blocks }), v).system, [
    { type: 'text', text: 'Be brief.' },
    { type: 'text', text: 'B' },
  ]);
  assert.equal(mergePresetIntoMessages(body({ system: 'own' }), version({})).system, 'own');
});

test('the preset is not changed by a merge (values are copied)', () => {
  const v = version({ models: ['openai/gpt-test'], stop: ['END'] });
  const merged = mergePresetIntoMessages(body(), v);
  (merged.stop_sequences as string[]).push('X');
  (merged.models as string[]).push('Y');
  assert.deepEqual(v.config, { models: ['openai/gpt-test'], stop: ['END'] });
});
