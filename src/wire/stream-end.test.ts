import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { CanonicalChunk } from '../canonical/index.js';
import { isUpstreamError, type UpstreamResponse } from '../upstream/index.js';
import { heldBody, type BodyState } from '../upstream/body-fixture.js';
import { nativeResponseChunks } from './openai-responses/outbound/stream.js';
import { geminiChunks } from './gemini-generate/stream.js';
import { nativeChunks } from './anthropic-messages/outbound/native.js';
import { anthropicChunks } from './anthropic-messages/outbound/stream.js';
import { converseChunks } from './bedrock-converse/stream.js';
import { invokeAnthropicChunks } from './bedrock-invoke/anthropic.js';
import { eventFrame, exceptionFrame } from '../../test/fake-clouds/eventstream.js';

/**
 * The end of a stream read event by event (ItemStream, over SSE or AWS's event stream): complete
 * at the dialect's last event, whether or not the upstream has closed its body yet.
 */

/** One SSE event; named after its `type` when it has one (Gemini's events have none). */
const sse = (data: { type?: string; [field: string]: unknown }): string =>
  `${data.type === undefined ? '' : `event: ${data.type}\n`}data: ${JSON.stringify(data)}\n\n`;

const SSE_ERROR = sse({ type: 'error', error: { type: 'overloaded_error', message: 'busy' } });
const SSE_JUNK = 'data: {not json after the end\n\n';

const MESSAGES = [
  sse({
    type: 'message_start',
    message: { id: 'msg_1', model: 'claude', usage: { input_tokens: 5, output_tokens: 0 } },
  }),
  sse({ type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }),
  sse({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Hi' } }),
  sse({ type: 'content_block_stop', index: 0 }),
  sse({ type: 'message_delta', delta: { stop_reason: 'end_turn' }, usage: { output_tokens: 2 } }),
  sse({ type: 'message_stop' }),
];

const RESPONSES = [
  sse({ type: 'response.created', response: { id: 'resp_1', status: 'in_progress' } }),
  sse({ type: 'response.output_text.delta', delta: 'Hi' }),
  sse({
    type: 'response.completed',
    response: { id: 'resp_1', status: 'completed', usage: { input_tokens: 5, output_tokens: 2, total_tokens: 7 } },
  }),
];

const GEMINI = [
  sse({
    responseId: 'r1',
    modelVersion: 'gemini',
    candidates: [{ content: { role: 'model', parts: [{ text: 'Hi' }] } }],
  }),
  sse({
    candidates: [{ content: { role: 'model', parts: [{ text: '!' }] }, finishReason: 'STOP' }],
    usageMetadata: { promptTokenCount: 5, candidatesTokenCount: 2, totalTokenCount: 7 },
  }),
];

/** A Messages event as Bedrock's InvokeModelWithResponseStream carries it: base64'd in a `chunk` message. */
const invokeFrame = (sse: string): Uint8Array => {
  const data = sse.slice(sse.indexOf('data: ') + 6).trim();
  return eventFrame('chunk', { bytes: Buffer.from(data).toString('base64') });
};

const CONVERSE = [
  eventFrame('messageStart', { role: 'assistant' }),
  eventFrame('contentBlockDelta', { contentBlockIndex: 0, delta: { text: 'Hi' } }),
  eventFrame('contentBlockStop', { contentBlockIndex: 0 }),
  eventFrame('messageStop', { stopReason: 'end_turn' }),
  eventFrame('metadata', { usage: { inputTokens: 5, outputTokens: 2, totalTokens: 7 } }),
];

type Part = string | Uint8Array;
interface Reader {
  events: Part[];
  /** Where a body may end before the stream is complete (default: before its last event). */
  cut?: number;
  /** An in-stream error (default: Anthropic's SSE `error` event). */
  error?: Part;
  /** A malformed event after the end (default: SSE data that is not JSON). */
  junk?: Part;
  read: (res: UpstreamResponse) => { next(): Promise<IteratorResult<CanonicalChunk, void>> };
}

const BEDROCK = { providerId: 'p', apiKey: null };
const AWS_JUNK = Buffer.from([0, 0, 0, 3, 1, 2, 3]);
const READERS: Record<string, Reader> = {
  'Messages, native': { events: MESSAGES, read: (res) => nativeChunks(res, 'p', null, 'claude') },
  'Messages, translated to chat': {
    events: MESSAGES,
    read: (res) => anthropicChunks(res, { providerId: 'p', apiKey: null, fallbackId: 'gen-1', model: 'claude' }),
  },
  'Responses, native': { events: RESPONSES, read: (res) => nativeResponseChunks(res, 'p', null, 'gpt') },
  Gemini: {
    events: GEMINI,
    read: (res) => geminiChunks(res, { providerId: 'p', apiKey: null, fallbackId: 'gen-1', model: 'gemini' }),
  },
  'Bedrock ConverseStream': {
    events: CONVERSE,
    cut: -2, // without `metadata` the usage is zero; without `messageStop` the stream is cut
    error: exceptionFrame('throttlingException', 'slow down'),
    junk: AWS_JUNK,
    read: (res) => converseChunks(res, { ...BEDROCK, id: 'gen-1', model: 'nova' }),
  },
  'Bedrock InvokeModelWithResponseStream (Messages)': {
    events: MESSAGES.map(invokeFrame),
    error: exceptionFrame('modelStreamErrorException', 'busy'),
    junk: AWS_JUNK,
    read: (res) => invokeAnthropicChunks(res, { ...BEDROCK, model: 'claude' }),
  },
};

async function all(it: { next(): Promise<IteratorResult<CanonicalChunk, void>> }): Promise<CanonicalChunk[]> {
  const out: CanonicalChunk[] = [];
  for (let step = await it.next(); step.done !== true; step = await it.next()) out.push(step.value);
  return out;
}

for (const [name, { events, cut = -1, error = SSE_ERROR, junk = SSE_JUNK, read }] of Object.entries(READERS)) {
  test(
    `${name}: the stream ends at its last event without waiting for the body; the rest is drained`,
    { timeout: 5000 },
    async () => {
      let release = (): void => undefined;
      const held = new Promise<void>((resolve) => (release = resolve));
      const state: BodyState = { drained: false, closed: false };
      const chunks = await all(read(heldBody([...events, junk], held, state)));
      assert.ok(chunks.length > 0);
      assert.ok(
        chunks.some((c) => c.usage !== undefined),
        'the usage is read',
      );
      assert.equal(state.drained, false, 'the body is still open');
      release();
      await new Promise((r) => setImmediate(r));
      assert.equal(state.drained, true, 'the rest was read to the end');
      assert.equal(state.closed, false);
    },
  );

  test(`${name}: a body that ends before the last event is a protocol error`, { timeout: 5000 }, async () => {
    await assert.rejects(
      all(read(heldBody(events.slice(0, cut)))),
      (err: unknown) => isUpstreamError(err) && err.kind === 'protocol',
    );
  });

  test(`${name}: an error event fails the stream and closes the body`, { timeout: 5000 }, async () => {
    const state: BodyState = { drained: false, closed: false };
    const it = read(heldBody([events[0] ?? '', error], new Promise(() => undefined), state));
    await assert.rejects(all(it), (err: unknown) => isUpstreamError(err) && err.kind === 'stream');
    assert.equal(state.closed, true);
  });
}
