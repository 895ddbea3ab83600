import assert from 'node:assert/strict';
import type { CanonicalChatRequest, CanonicalChunk } from '../../src/canonical/index.js';
import type { CallContext, ProviderEndpointConfig, ProviderKind } from '../../src/providers/index.js';
import { staticAuth } from '../../src/upstream/index.js';
import { UPSTREAM_KINDS } from '../../src/wire/index.js';

export const API_KEY = 'sk-test-0123456789abcdefSECRET';

export function endpointFor(
  kind: ProviderKind,
  baseUrl: string,
  overrides: Partial<ProviderEndpointConfig> = {},
): ProviderEndpointConfig {
  const apiKey = overrides.apiKey === undefined ? API_KEY : overrides.apiKey;
  return {
    providerId: `fake-${kind}`,
    kind,
    baseUrl,
    auth: staticAuth(UPSTREAM_KINDS[kind].auth, apiKey),
    apiKey,
    headers: { 'x-extra-header': 'yes' },
    // Generous: a loaded CI machine must not turn an ordinary answer into a timeout. Tests of the
    // timeouts themselves set short ones.
    timeouts: { connectMs: 5000, firstByteMs: 10_000, idleMs: 10_000 },
    ...overrides,
  };
}

let counter = 0;
export function ctx(signal: AbortSignal = new AbortController().signal): CallContext {
  counter += 1;
  return { signal, requestId: `req-${counter}` };
}

export function chatRequest(model: string, overrides: Partial<CanonicalChatRequest> = {}): CanonicalChatRequest {
  return {
    model,
    messages: [
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'What is the weather in Paris?' },
    ],
    temperature: 0.5,
    extra: {},
    ...overrides,
  };
}

export const WEATHER_TOOL = {
  type: 'function' as const,
  function: {
    name: 'get_weather',
    description: 'Weather for a city',
    parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
  },
};

export async function collect(stream: AsyncIterable<CanonicalChunk>): Promise<CanonicalChunk[]> {
  const out: CanonicalChunk[] = [];
  for await (const chunk of stream) out.push(chunk);
  return out;
}

export function textOf(chunks: CanonicalChunk[]): string {
  return chunks.map((c) => c.choices.map((ch) => ch.delta.content ?? '').join('')).join('');
}

export function toolCallsOf(chunks: CanonicalChunk[]): { id: string; name: string; arguments: string }[] {
  const calls: { id: string; name: string; arguments: string }[] = [];
  for (const c of chunks) {
    for (const ch of c.choices) {
      for (const t of ch.delta.tool_calls ?? []) {
        const call = (calls[t.index] ??= { id: '', name: '', arguments: '' });
        if (t.id !== undefined) call.id = t.id;
        if (t.function?.name !== undefined) call.name += t.function.name;
        if (t.function?.arguments !== undefined) call.arguments += t.function.arguments;
      }
    }
  }
  return calls;
}

export function finishOf(chunks: CanonicalChunk[]): (string | null)[] {
  return chunks.flatMap((c) => c.choices.map((ch) => ch.finish_reason)).filter((f) => f !== null);
}

/** Usage only on the last chunk. */
export function assertUsageLast(chunks: CanonicalChunk[]): NonNullable<CanonicalChunk['usage']> {
  const last = chunks[chunks.length - 1];
  assert.ok(last?.usage !== undefined, 'last chunk carries usage');
  assert.equal(chunks.slice(0, -1).filter((c) => c.usage !== undefined).length, 0, 'only the last chunk carries usage');
  return last.usage;
}

/** The UpstreamError a call rejects with. */
export { failure as upstreamFailure } from '../../src/upstream/loopback-fixture.js';

export async function withTimeout<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const t = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out waiting for ${what}`)), ms);
  });
  try {
    return await Promise.race([p, t]);
  } finally {
    clearTimeout(timer);
  }
}
