import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isUpstreamError, type UpstreamResponse } from '../../../upstream/index.js';
import { heldBody } from '../../../upstream/body-fixture.js';
import type { ProviderEndpointConfig } from '../../adapter.js';
import { str } from '../../../canonical/json.js';
import { relayOpenAiStream } from './stream-relay.js';
import { NO_AUTH } from '../../../upstream/index.js';

const endpoint: ProviderEndpointConfig = {
  providerId: 'p',
  kind: 'openai',
  baseUrl: 'http://127.0.0.1:1/v1',
  auth: NO_AUTH,
  apiKey: null,
  timeouts: { connectMs: 1000, firstByteMs: 1000, idleMs: 1000 },
};

const body = heldBody;

/** Chunks are the events' `content`; usage is `{u}` (as prompt_tokens); the last chunk says `last:<usage>`. */
function relay(res: UpstreamResponse) {
  return relayOpenAiStream<string>({
    res,
    endpoint,
    meta: { id: 'gen-1', model: 'm', created: 1 },
    step: (event) => {
      const content = str(event.content) ?? null;
      const usage =
        typeof event.u === 'number' ? { prompt_tokens: event.u, completion_tokens: 0, total_tokens: event.u } : null;
      return { chunk: content, usage, finished: event.finish === true };
    },
    last: (_meta, usage) => `last:${usage?.prompt_tokens ?? 'none'}`,
  });
}

async function all(it: { next(): Promise<IteratorResult<string, void>> }): Promise<string[]> {
  const out: string[] = [];
  for (let step = await it.next(); step.done !== true; step = await it.next()) out.push(step.value);
  return out;
}

test('events split across reads (and a split multi-byte character) come out in order; usage is held for the last chunk', async () => {
  const text = 'data: {"content":"a€"}\n\ndata: {"content":"b"}\n\ndata: {"finish":true,"u":7}\n\ndata: [DONE]\n\n';
  const bytes = Buffer.from(text);
  const cut = text.indexOf('€') + 1; // inside the euro sign's three bytes
  const res: UpstreamResponse = {
    ...body([]),
    chunks: async function* () {
      yield bytes.subarray(0, cut);
      yield bytes.subarray(cut);
    },
  };
  assert.deepEqual(await all(relay(res)), ['a€', 'b', 'last:7']);
});

test('the stream ends at [DONE] without waiting for the upstream to close, and the rest is drained in the background', async () => {
  let release = (): void => undefined;
  const held = new Promise<void>((resolve) => (release = resolve));
  const state = { drained: false, closed: false };
  const out = await all(
    relay(body(['data: {"content":"a"}\n\n', 'data: [DONE]\n\n', 'data: {"content":"ignored"}\n\n'], held, state)),
  );
  assert.deepEqual(out, ['a', 'last:none']);
  assert.equal(state.drained, false, 'the body is still open');
  release();
  await new Promise((r) => setImmediate(r));
  assert.equal(state.drained, true, 'the rest was read to the end');
  assert.equal(state.closed, false);
});

test('without [DONE], a finish reason makes the end of the body a normal end; without either it is a protocol error', async () => {
  assert.deepEqual(await all(relay(body(['data: {"content":"a","finish":true}\n\n']))), ['a', 'last:none']);
  await assert.rejects(
    all(relay(body(['data: {"content":"a"}\n\n']))),
    (err: unknown) => isUpstreamError(err) && err.kind === 'protocol',
  );
});

test('a caller that stops early closes the body', async () => {
  const state = { drained: false, closed: false };
  const it = relay(
    body(
      ['data: {"content":"a"}\n\ndata: {"content":"b"}\n\n', 'data: {"content":"c"}\n\n'],
      new Promise(() => undefined),
      state,
    ),
  );
  assert.deepEqual(await it.next(), { done: false, value: 'a' });
  await it.return();
  assert.equal(state.closed, true);
  assert.deepEqual(await it.next(), { done: true, value: undefined });
});

test('an error event is an UpstreamError of kind stream, invalid JSON a protocol error; both close the body', async () => {
  const errState = { drained: false, closed: false };
  const withError = relay(
    body(
      ['data: {"content":"a"}\n\ndata: {"error":{"code":429,"message":"slow down"}}\n\n'],
      new Promise(() => undefined),
      errState,
    ),
  );
  assert.equal((await withError.next()).value, 'a');
  await assert.rejects(
    withError.next(),
    (err: unknown) => isUpstreamError(err) && err.kind === 'stream' && err.status === 429,
  );
  assert.equal(errState.closed, true);
  assert.deepEqual(await withError.next(), { done: true, value: undefined });
  const badState = { drained: false, closed: false };
  await assert.rejects(
    all(relay(body(['data: {nope\n\n'], new Promise(() => undefined), badState))),
    (err: unknown) => isUpstreamError(err) && err.kind === 'protocol',
  );
  assert.equal(badState.closed, true);
});

test('a failing body rejects the waiting next()', async () => {
  const res: UpstreamResponse = {
    ...body([]),
    chunks: async function* () {
      yield Buffer.from('data: {"content":"a"}\n\n');
      throw new Error('socket reset');
    },
  };
  const it = relay(res);
  assert.equal((await it.next()).value, 'a');
  await assert.rejects(it.next(), /socket reset/);
});
