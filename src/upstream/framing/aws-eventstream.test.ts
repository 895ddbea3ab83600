import assert from 'node:assert/strict';
import { test } from 'node:test';
import { converseStreamFrames } from '../../../test/fake-clouds/bedrock-converse.js';
import { exceptionFrame } from '../../../test/fake-clouds/eventstream.js';
import { makeScript } from '../../../test/fake-clouds/script.js';
import { AwsEventParser, EventStreamError, type AwsEventMessage } from './aws-eventstream.js';
import type { FrameBatch } from './frame-batch.js';

const LIMITS = { maxEventBytes: 64 * 1024 };

/** The fake Bedrock's ConverseStream answer with thinking and a tool call, plus a mid-stream exception. */
function fakeStream(): Buffer {
  const script = makeScript({
    thinking: { text: 'hmm', signature: 'sig' },
    toolCalls: [{ id: 't1', name: 'f', input: { a: 1 } }],
  });
  return Buffer.concat([...converseStreamFrames(script), exceptionFrame('throttlingException', 'slow down')]);
}

async function* chunks(...parts: Uint8Array[]): AsyncIterable<Uint8Array> {
  for (const part of parts) yield part;
}

async function collect(body: AsyncIterable<Uint8Array>, limits = LIMITS): Promise<AwsEventMessage[]> {
  const out: AwsEventMessage[] = [];
  const parser = new AwsEventParser(limits.maxEventBytes);
  const take = (batch: FrameBatch<AwsEventMessage>) => {
    for (let i = 0; i < batch.length; i++) out.push(batch.at(i));
  };
  for await (const chunk of body) take(parser.push(chunk));
  take(parser.end());
  return out;
}

function summary(messages: AwsEventMessage[]): string[] {
  return messages.map((m) => `${m.messageType}:${m.type}:${Buffer.from(m.body).toString('utf8')}`);
}

test('decodes the fake Bedrock ConverseStream into whole messages, exceptions included', async () => {
  const messages = await collect(chunks(fakeStream()));
  assert.deepEqual(
    messages.map((m) => `${m.messageType}:${m.type}`),
    [
      'event:messageStart',
      'event:contentBlockDelta',
      'event:contentBlockDelta',
      'event:contentBlockStop',
      ...Array.from({ length: 5 }, () => 'event:contentBlockDelta'),
      'event:contentBlockStop',
      'event:contentBlockStart',
      'event:contentBlockDelta',
      'event:contentBlockStop',
      'event:messageStop',
      'event:metadata',
      'exception:throttlingException',
    ],
  );
  assert.deepEqual(JSON.parse(Buffer.from(messages[0]?.body ?? []).toString('utf8')), { role: 'assistant' });
  assert.equal(messages.at(-1)?.headers[':content-type'], 'application/json');
});

test('the same messages whatever the split: every byte boundary, and one byte at a time', async () => {
  const whole = fakeStream();
  const expected = summary(await collect(chunks(whole)));
  for (let at = 0; at <= whole.length; at++) {
    assert.deepEqual(
      summary(await collect(chunks(whole.subarray(0, at), whole.subarray(at)))),
      expected,
      `split at ${at}`,
    );
  }
  const bytes = Array.from(whole, (b) => Uint8Array.of(b));
  assert.deepEqual(summary(await collect(chunks(...bytes))), expected);
});

test('a stream cut inside a message is truncated, at every cut point; a cut between messages is not', async () => {
  const whole = fakeStream();
  const boundaries = new Set<number>([0]);
  for (let at = 0; at < whole.length;) {
    at += whole.readUInt32BE(at);
    boundaries.add(at);
  }
  for (let cut = 1; cut < whole.length; cut++) {
    const body = chunks(whole.subarray(0, cut));
    if (boundaries.has(cut)) {
      await collect(body);
      continue;
    }
    await assert.rejects(
      collect(body),
      (e: unknown) => e instanceof EventStreamError && e.reason === 'truncated',
      `cut at ${cut}`,
    );
  }
});

test('a message larger than the limit is refused from its prelude; a corrupted one fails its CRC', async () => {
  const whole = fakeStream();
  await assert.rejects(
    collect(chunks(whole), { maxEventBytes: 40 }),
    (e: unknown) => e instanceof EventStreamError && e.reason === 'too_large',
  );
  // The declared length alone decides: nothing past the prelude need arrive.
  const huge = Buffer.alloc(4);
  huge.writeUInt32BE(10 * 1024 * 1024);
  await assert.rejects(
    collect(chunks(huge)),
    (e: unknown) => e instanceof EventStreamError && e.reason === 'too_large',
  );
  const corrupt = Buffer.from(whole);
  corrupt[20] = (corrupt[20] ?? 0) ^ 0xff;
  await assert.rejects(
    collect(chunks(corrupt)),
    (e: unknown) => e instanceof EventStreamError && e.reason === 'corrupt',
  );
  await assert.rejects(
    collect(chunks(Buffer.from([0, 0, 0, 3, 1, 2, 3]))),
    (e: unknown) => e instanceof EventStreamError && e.reason === 'corrupt',
  );
});
