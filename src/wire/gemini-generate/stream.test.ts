import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { CanonicalChunk } from '../../canonical/index.js';
import { isUpstreamError, type UpstreamResponse } from '../../upstream/index.js';
import { heldBody } from '../../upstream/body-fixture.js';
import { geminiChunks } from './stream.js';

function sse(events: unknown[]): UpstreamResponse {
  return heldBody(events.map((e) => `data: ${JSON.stringify(e)}\r\n\r\n`));
}

const options = { providerId: 'p', apiKey: 'AIzaSECRETKEY0000', fallbackId: 'gen-1', model: 'gemini-2.5-pro' };

async function collect(events: unknown[]): Promise<CanonicalChunk[]> {
  const out: CanonicalChunk[] = [];
  for await (const c of geminiChunks(sse(events), options)) out.push(c);
  return out;
}

const piece = (parts: unknown[], extra: Record<string, unknown> = {}) => ({
  candidates: [{ content: { role: 'model', parts }, index: 0, ...extra }],
  usageMetadata: { promptTokenCount: 9, totalTokenCount: 9 },
});

test('tool calls are numbered across pieces; the last chunk carries the final usage', async () => {
  const chunks = await collect([
    piece([{ functionCall: { name: 'a', args: {} } }]),
    {
      ...piece([{ functionCall: { id: 'x', name: 'b', args: { q: 1 } } }], { finishReason: 'STOP' }),
      usageMetadata: { promptTokenCount: 9, candidatesTokenCount: 4, totalTokenCount: 13 },
    },
  ]);
  const calls = chunks.flatMap((c) => c.choices[0]?.delta.tool_calls ?? []);
  assert.deepEqual(
    calls.map((c) => [c.index, c.id, c.function?.name, c.function?.arguments]),
    [
      [0, 'call_0', 'a', '{}'],
      [1, 'x', 'b', '{"q":1}'],
    ],
  );
  assert.equal(
    chunks.find((c) => c.choices[0]?.finish_reason !== null && c.choices.length > 0)?.choices[0]?.finish_reason,
    'tool_calls',
  );
  assert.deepEqual(chunks.at(-1)?.usage, { prompt_tokens: 9, completion_tokens: 4, total_tokens: 13 });
});

test('a prompt blocked mid-stream is a content-filter finish', async () => {
  const chunks = await collect([{ promptFeedback: { blockReason: 'SAFETY' }, usageMetadata: { promptTokenCount: 3 } }]);
  const finish = chunks.find((c) => c.choices[0]?.finish_reason !== undefined && c.choices[0]?.finish_reason !== null);
  assert.equal(finish?.choices[0]?.finish_reason, 'content_filter');
  assert.equal(finish?.choices[0]?.native_finish_reason, 'SAFETY');
});

test('a stream without a finish is a protocol error; an error event maps its status and hides the key', async () => {
  await assert.rejects(
    collect([piece([{ text: 'partial' }])]),
    (e: unknown) => isUpstreamError(e) && e.kind === 'protocol',
  );
  await assert.rejects(
    collect([
      piece([{ text: 'partial' }]),
      { error: { code: 429, status: 'RESOURCE_EXHAUSTED', message: 'Quota for AIzaSECRETKEY0000 exceeded' } },
    ]),
    (e: unknown) => isUpstreamError(e) && e.kind === 'stream' && e.status === 429 && !e.message.includes('SECRET'),
  );
});
