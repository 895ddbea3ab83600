import { test } from 'node:test';
import assert from 'node:assert/strict';
import { toCanonicalChatRequest, type CanonicalChatRequest } from '../../src/canonical/index.js';
import { chatBody } from '../../src/wire/openai-chat/outbound/request.js';
import { twoPassChatBody } from './chat-body-two-pass.js';

/** Field values a request may carry, typed or extra, declared upstream or not. */
const VALUES: Record<string, unknown[]> = {
  messages: [
    [{ role: 'user', content: 'hi' }],
    [
      { content: 'sys', role: 'system', name: 'n' },
      {
        role: 'user',
        content: [
          { type: 'text', text: 'a', cache_control: { type: 'ephemeral' } },
          { type: 'image_url', image_url: { url: 'data:x' } },
          { type: 'document', source: {} },
        ],
      },
      { role: 'assistant', content: [{ type: 'thinking', thinking: 't' }], tool_calls: [{ id: 'c' }] },
      { role: 'tool', tool_call_id: 'c', content: 'r', extra_field: 1 },
      { role: 'critic', content: 'dropped' },
    ],
  ],
  model: ['client-model'],
  stream: [true, false],
  temperature: [0.2, undefined],
  top_p: [1],
  top_k: [40, undefined],
  max_tokens: [5],
  max_completion_tokens: [7, null],
  stop: ['x', ['a', 'b']],
  seed: [1],
  logprobs: [true],
  user: ['u'],
  tools: [
    [{ type: 'function', function: { name: 'f', parameters: {}, extra: 1 }, cache_control: {} }],
    [{ type: 'web_search_preview' }],
  ],
  tool_choice: ['auto', { type: 'function', function: { name: 'f' } }],
  parallel_tool_calls: [false],
  response_format: [{ type: 'json_object' }],
  reasoning: [{ effort: 'max' }, { max_tokens: 100 }, { enabled: true }],
  reasoning_effort: ['low', 'unknown-effort'],
  metadata: [{ k: 'v' }],
  stream_options: [{ include_usage: false, other: 1 }, 'not-an-object'],
  n: [2],
  store: [false],
  prediction: [{ type: 'content', content: 'p' }],
  vendor_flag: [{ deep: true }],
  extra: [{ nested: 1 }],
  ['__proto__']: [{ polluted: true }],
};
const KEYS = Object.keys(VALUES);

/** A small deterministic generator, so a failure names a reproducible case. */
function generator(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

/** A canonical request with random typed and extra fields in a random order, names overlapping at times. */
function randomRequest(random: () => number): CanonicalChatRequest {
  const typed: Record<string, unknown> = {};
  const extra: Record<string, unknown> = {};
  const order = [...KEYS].sort(() => random() - 0.5);
  for (const key of order) {
    const roll = random();
    if (roll < 0.3) continue;
    const values = VALUES[key] ?? [];
    const value = values[Math.floor(random() * values.length)];
    const into = roll < 0.65 ? typed : extra;
    Object.defineProperty(into, key, { value, enumerable: true, writable: true, configurable: true });
    const other = roll < 0.65 ? extra : typed;
    if (random() < 0.1)
      Object.defineProperty(other, key, { value: undefined, enumerable: true, writable: true, configurable: true });
  }
  typed.messages ??= VALUES.messages?.[0];
  if (random() < 0.5) typed.model = 'upstream-model';
  return { ...typed, extra } as unknown as CanonicalChatRequest;
}

function assertSame(req: CanonicalChatRequest, label: string): void {
  for (const stream of [false, true]) {
    const expected = twoPassChatBody(req, stream);
    const actual = chatBody(req, stream);
    assert.equal(JSON.stringify(actual), JSON.stringify(expected), `${label}, stream ${stream}`);
    assert.deepEqual(Object.keys(actual), Object.keys(expected), `${label}, stream ${stream}: keys`);
  }
}

test('the one-pass chat body has the two-pass body bytes and keys for a varied set of requests', () => {
  const random = generator(25);
  for (let i = 0; i < 2000; i++) assertSame(randomRequest(random), `random request ${i}`);
});

test('the one-pass chat body matches for client bodies decoded the usual way', () => {
  const bodies: Record<string, unknown>[] = [
    { model: 'a/b', messages: [{ role: 'user', content: 'x' }] },
    {
      stream: true,
      provider: { order: ['p'] },
      messages: [
        { role: 'system', content: 's' },
        { role: 'user', content: 'u' },
      ],
      tools: [{ type: 'function', function: { name: 'f' } }],
      reasoning: { effort: 'high' },
      models: ['a', 'b'],
      store: true,
      stream_options: { include_usage: false },
      temperature: 0.5,
      model: 'a/b',
      vendor: 1,
    },
    {
      reasoning_effort: 'minimal',
      messages: [{ role: 'user', content: [{ type: 'text', text: 't' }] }],
      tools: [{ type: 'file_search' }],
      tool_choice: 'none',
      parallel_tool_calls: true,
    },
  ];
  for (const [i, body] of bodies.entries()) {
    const req = toCanonicalChatRequest(body as Parameters<typeof toCanonicalChatRequest>[0], 'upstream');
    assertSame(req, `client body ${i}`);
  }
});
