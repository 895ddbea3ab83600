import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { EventStreamCodec } from '@smithy/eventstream-codec';
import type { CanonicalChatRequest, CanonicalChunk } from '../../canonical/index.js';
import { isGatewayError } from '../../errors/index.js';
import { isUpstreamError, type UpstreamResponse } from '../../upstream/index.js';
import { heldBody } from '../../upstream/body-fixture.js';
import { converseBody } from './request.js';
import { converseResponse } from './response.js';
import { converseChunks } from './stream.js';

const CLAUDE = 'us.anthropic.claude-sonnet-4-5-20250929-v1:0';
const NOVA = 'amazon.nova-pro-v1:0';
const base = (over: Partial<CanonicalChatRequest>): CanonicalChatRequest => ({
  model: CLAUDE,
  messages: [{ role: 'user', content: 'hi' }],
  extra: {},
  ...over,
});

describe('Converse request', () => {
  it('system blocks with a cache point, merged user turns, no maxTokens for a model that needs none', () => {
    const body = converseBody(
      base({
        model: NOVA,
        messages: [
          { role: 'system', content: [{ type: 'text', text: 'Rules.', cache_control: { type: 'ephemeral' } }] },
          { role: 'user', content: 'a' },
          { role: 'user', content: 'b' },
        ],
        top_p: 0.9,
        extra: { unknown_field: 1 },
      }),
      NOVA,
      null,
    );
    assert.deepEqual(body, {
      system: [{ text: 'Rules.' }, { cachePoint: { type: 'default' } }],
      messages: [{ role: 'user', content: [{ text: 'a' }, { text: 'b' }] }],
      inferenceConfig: { topP: 0.9 },
    });
  });

  it('Claude gets a maxTokens (the catalog limit first), thinking in additionalModelRequestFields', () => {
    assert.deepEqual(converseBody(base({}), CLAUDE, 8000).inferenceConfig, { maxTokens: 8000 });
    assert.deepEqual(converseBody(base({}), CLAUDE, null).inferenceConfig, { maxTokens: 4096 });
    const thinking = converseBody(base({ reasoning: { max_tokens: 2000 }, max_tokens: 1000 }), CLAUDE, null);
    assert.deepEqual(thinking.additionalModelRequestFields, { thinking: { type: 'enabled', budget_tokens: 2000 } });
    assert.equal((thinking.inferenceConfig as { maxTokens: number }).maxTokens, 6096, 'room for the answer');
  });

  it('tool_choice none keeps tool definitions only when the history uses tools', () => {
    const tools = [{ type: 'function' as const, function: { name: 'f', parameters: { type: 'object' } } }];
    assert.equal(converseBody(base({ tools, tool_choice: 'none' }), NOVA, null).toolConfig, undefined);
    const history = base({
      tools,
      tool_choice: 'none',
      messages: [
        { role: 'user', content: 'go' },
        {
          role: 'assistant',
          content: null,
          tool_calls: [{ id: 't1', type: 'function', function: { name: 'f', arguments: '{}' } }],
        },
        { role: 'tool', tool_call_id: 't1', content: '' },
      ],
    });
    const body = converseBody(history, NOVA, null);
    assert.deepEqual(body.toolConfig, {
      tools: [{ toolSpec: { name: 'f', inputSchema: { json: { type: 'object' } } } }],
    });
    const messages = body.messages as { content: unknown[] }[];
    assert.deepEqual(
      messages[2]?.content,
      [{ toolResult: { toolUseId: 't1', content: [{ text: ' ' }] } }],
      'an empty result is not an empty block',
    );
  });

  it('an image link is refused with a 400 (Converse takes bytes only); a PDF becomes a document', () => {
    const link = base({
      messages: [{ role: 'user', content: [{ type: 'image_url', image_url: { url: 'https://x.test/a.png' } }] }],
    });
    assert.throws(
      () => converseBody(link, NOVA, null),
      (e: unknown) => isGatewayError(e) && e.status === 400,
    );
    const pdf = base({
      messages: [
        { role: 'user', content: [{ type: 'file', file: { file_data: 'data:application/pdf;base64,JVBERg==' } }] },
      ],
    });
    const messages = converseBody(pdf, NOVA, null).messages as { content: unknown[] }[];
    assert.deepEqual(messages[0]?.content, [
      { document: { format: 'pdf', name: 'document-1', source: { bytes: 'JVBERg==' } } },
    ]);
  });
});

describe('Converse answer', () => {
  it('reads text, reasoning (signed and redacted), tool use, stop reason and cache usage', () => {
    const out = converseResponse(
      {
        output: {
          message: {
            role: 'assistant',
            content: [
              { reasoningContent: { reasoningText: { text: 'think', signature: 'sig' } } },
              { reasoningContent: { redactedContent: 'b64' } },
              { text: 'Answer' },
              { toolUse: { toolUseId: 'tu1', name: 'f', input: { a: 1 } } },
            ],
          },
        },
        stopReason: 'tool_use',
        usage: { inputTokens: 5, outputTokens: 7, totalTokens: 15, cacheReadInputTokens: 2, cacheWriteInputTokens: 1 },
      },
      { model: CLAUDE, id: 'gen-1' },
    );
    const choice = out?.choices[0];
    assert.equal(choice?.message.content, 'Answer');
    assert.equal(choice?.message.reasoning, 'think');
    assert.deepEqual(
      choice?.message.reasoning_details?.map((d) => [d.type, d.signature ?? d.data]),
      [
        ['reasoning.text', 'sig'],
        ['reasoning.encrypted', 'b64'],
      ],
    );
    assert.deepEqual(choice?.message.tool_calls, [
      { id: 'tu1', type: 'function', function: { name: 'f', arguments: '{"a":1}' } },
    ]);
    assert.equal(choice?.finish_reason, 'tool_calls');
    assert.deepEqual(out?.usage, {
      prompt_tokens: 8,
      completion_tokens: 7,
      total_tokens: 15,
      prompt_tokens_details: { cached_tokens: 2, cache_write_tokens: 1 },
    });
    assert.equal(converseResponse({ output: {} }, { model: CLAUDE, id: 'x' }), null);
  });
});

const codec = new EventStreamCodec(
  (b: Uint8Array) => Buffer.from(b).toString('utf8'),
  (t: string) => new Uint8Array(Buffer.from(t, 'utf8')),
);
function frame(kind: 'event' | 'exception', type: string, payload: unknown): Uint8Array {
  const typeHeader = kind === 'event' ? ':event-type' : ':exception-type';
  return codec.encode({
    headers: {
      ':message-type': { type: 'string', value: kind },
      [typeHeader]: { type: 'string', value: type },
    },
    body: new Uint8Array(Buffer.from(JSON.stringify(payload))),
  });
}
/** The frames as an upstream body in 7-byte reads: frames split across reads. */
function body(frames: Uint8Array[]): UpstreamResponse {
  const all = Buffer.concat(frames);
  const parts: Uint8Array[] = [];
  for (let i = 0; i < all.length; i += 7) parts.push(all.subarray(i, i + 7));
  return heldBody(parts);
}
async function collect(frames: Uint8Array[]): Promise<CanonicalChunk[]> {
  const out: CanonicalChunk[] = [];
  const chunks = converseChunks(body(frames), { providerId: 'p', apiKey: null, id: 'gen-1', model: NOVA });
  for (let step = await chunks.next(); step.done !== true; step = await chunks.next()) out.push(step.value);
  return out;
}

describe('ConverseStream', () => {
  it('chunks for text, reasoning and a tool call; the finish, then the usage last', async () => {
    const chunks = await collect([
      frame('event', 'messageStart', { role: 'assistant' }),
      frame('event', 'contentBlockDelta', { contentBlockIndex: 0, delta: { reasoningContent: { text: 'hm' } } }),
      frame('event', 'contentBlockDelta', { contentBlockIndex: 0, delta: { reasoningContent: { signature: 'sig' } } }),
      frame('event', 'contentBlockDelta', { contentBlockIndex: 1, delta: { text: 'Hi' } }),
      frame('event', 'contentBlockStart', { contentBlockIndex: 2, start: { toolUse: { toolUseId: 'tu', name: 'f' } } }),
      frame('event', 'contentBlockDelta', { contentBlockIndex: 2, delta: { toolUse: { input: '{"a":' } } }),
      frame('event', 'contentBlockDelta', { contentBlockIndex: 2, delta: { toolUse: { input: '1}' } } }),
      frame('event', 'contentBlockStop', { contentBlockIndex: 2 }),
      frame('event', 'messageStop', { stopReason: 'tool_use' }),
      frame('event', 'metadata', { usage: { inputTokens: 3, outputTokens: 4, totalTokens: 7 } }),
    ]);
    const deltas = chunks.flatMap((c) => c.choices.map((ch) => ch.delta));
    assert.equal(deltas.map((d) => d.reasoning ?? '').join(''), 'hm');
    assert.equal(deltas.map((d) => d.content ?? '').join(''), 'Hi');
    assert.equal(
      deltas
        .flatMap((d) => d.tool_calls ?? [])
        .map((t) => t.function?.arguments ?? '')
        .join(''),
      '{"a":1}',
    );
    assert.ok(deltas.some((d) => d.reasoning_details?.some((r) => r.signature === 'sig')));
    const finish = chunks.at(-2)?.choices[0];
    assert.deepEqual([finish?.finish_reason, finish?.native_finish_reason], ['tool_calls', 'tool_use']);
    assert.deepEqual(chunks.at(-1)?.usage, { prompt_tokens: 3, completion_tokens: 4, total_tokens: 7 });
  });

  it('an exception message is the mapped upstream error; a stream without messageStop is a protocol error', async () => {
    await assert.rejects(
      collect([
        frame('event', 'messageStart', {}),
        frame('exception', 'throttlingException', { message: 'slow down' }),
      ]),
      (e: unknown) => isUpstreamError(e) && e.status === 429 && /slow down/.test(e.message),
    );
    await assert.rejects(
      collect([
        frame('event', 'messageStart', {}),
        frame('event', 'contentBlockDelta', { contentBlockIndex: 0, delta: { text: 'x' } }),
      ]),
      (e: unknown) => isUpstreamError(e) && e.kind === 'protocol',
    );
  });
});
