// The gateway's declaration of what an OpenAI chat upstream accepts matches the `openai`
// package's own type declarations (the strict fake reads those), and the outbound body keeps
// nothing else.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  OPENAI_CHAT_FIELDS,
  OPENAI_COMPLETION_FIELDS,
  OPENAI_MESSAGE_SHAPES,
  OPENAI_PART_FIELDS,
} from '../../src/wire/openai-chat/outbound/declaration.js';
import { chatBody } from '../../src/wire/openai-chat/outbound/request.js';
import { openAiChatDeclaration, openAiCompletionFields, refusedByOpenAi } from '../fake-upstream/openai-declared.js';

const sorted = (values: Iterable<string>) => [...values].sort();

describe('OpenAI chat declaration', () => {
  const declared = openAiChatDeclaration();

  it('lists exactly the top-level fields of ChatCompletionCreateParams', () => {
    assert.deepEqual(sorted(OPENAI_CHAT_FIELDS), sorted(declared.fields));
  });

  it('lists exactly the top-level fields of CompletionCreateParams (legacy completions)', () => {
    assert.deepEqual(sorted(OPENAI_COMPLETION_FIELDS), sorted(openAiCompletionFields()));
  });

  it('lists each role’s message fields and content-part types, and each part’s fields', () => {
    assert.deepEqual(sorted(Object.keys(OPENAI_MESSAGE_SHAPES)), sorted(declared.roles.keys()));
    for (const [role, shape] of declared.roles) {
      assert.deepEqual(sorted(OPENAI_MESSAGE_SHAPES[role]?.fields ?? []), sorted(shape.fields), role);
      assert.deepEqual(sorted(OPENAI_MESSAGE_SHAPES[role]?.parts ?? []), sorted(shape.parts), role);
    }
    assert.deepEqual(sorted(Object.keys(OPENAI_PART_FIELDS)), sorted(declared.parts.keys()));
    for (const [type, fields] of declared.parts)
      assert.deepEqual(sorted(OPENAI_PART_FIELDS[type] ?? []), sorted(fields));
  });

  it('a translated Claude Code request leaves nothing OpenAI refuses', () => {
    const body = chatBody(
      {
        model: 'gpt-x',
        messages: [
          { role: 'system', content: [{ type: 'text', text: 'S', cache_control: { type: 'ephemeral' } }] },
          { role: 'user', content: [{ type: 'text', text: 'hi', cache_control: { type: 'ephemeral' } }] },
          {
            role: 'assistant',
            content: null,
            reasoning: 'r',
            reasoning_details: [{ type: 'reasoning.text', text: 'r' }],
            tool_calls: [{ id: 't', type: 'function', function: { name: 'f', arguments: '{}' } }],
          },
          { role: 'tool', tool_call_id: 't', content: [{ type: 'image_url', image_url: { url: 'data:x' } }] },
        ],
        max_tokens: 100,
        top_k: 5,
        reasoning: { max_tokens: 2048 },
        tools: [
          { type: 'function', function: { name: 'f', parameters: {} }, cache_control: { type: 'ephemeral' } },
          { type: 'web_search_20250305', name: 'web_search' },
        ],
        extra: { context_management: {}, client_metadata: { a: 1 } },
      },
      true,
    );
    assert.equal(refusedByOpenAi(body), null, JSON.stringify(body));
    assert.equal('reasoning' in body, false);
    assert.equal('reasoning_effort' in body, false, 'a token budget has no effort to say');
    assert.deepEqual(body.tools, [{ type: 'function', function: { name: 'f', parameters: {} } }]);
    const effort = chatBody(
      { model: 'm', messages: [{ role: 'user', content: 'x' }], reasoning: { effort: 'max' }, extra: {} },
      false,
    );
    assert.equal(effort.reasoning_effort, 'xhigh');
  });

  it('the strict fake refuses what OpenAI refuses', () => {
    assert.match(refusedByOpenAi({ model: 'm', messages: [], reasoning: {} }) ?? '', /Unrecognized.*reasoning/);
    assert.match(
      refusedByOpenAi({
        model: 'm',
        messages: [{ role: 'user', content: [{ type: 'text', text: 'x', cache_control: {} }] }],
      }) ?? '',
      /cache_control/,
    );
    assert.match(
      refusedByOpenAi({ model: 'm', messages: [{ role: 'user', content: [{ type: 'document' }] }] }) ?? '',
      /document/,
    );
  });
});
