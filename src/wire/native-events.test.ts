// Native stream events keep the upstream's own text (native-events.ts) and the codecs write it as
// received, serialising only what the gateway built or changed.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { CanonicalChunk, NativeEvent } from '../canonical/index.js';
import type { EventWriter } from './codec.js';
import { messagesCodec } from './anthropic-messages/inbound/codec.js';
import { nativeChunk, readNativeEvent } from './native-events.js';
import { responsesCodec } from './openai-responses/codec.js';

/** The events a codec wrote, as `[name, payload]`. */
function recorder(): { writer: EventWriter; written: [string, string][] } {
  const written: [string, string][] = [];
  return {
    written,
    writer: {
      data: (payload) => void written.push(['', payload]),
      event: (name, payload) => void written.push([name, payload]),
      end: () => undefined,
    },
  };
}

function read(data: string): NativeEvent {
  const event = readNativeEvent({ event: 'message', data, id: null }, 'p');
  assert.ok(event !== null);
  return event;
}

function chunkOf(dialect: 'anthropic-messages' | 'openai-responses', events: NativeEvent[]): CanonicalChunk {
  const chunk = nativeChunk({ id: 'gen-1', created: 1, model: 'vendor/model' }, dialect, events[0] as NativeEvent, '');
  return { ...chunk, native: { dialect, events } };
}

describe('native stream events', () => {
  it('keep a one-line data text as received, and none for data that came on several lines', () => {
    const spaced =
      '{"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": "a\\/b \\u00e9"}}';
    const event = read(spaced);
    assert.equal(event.event, 'content_block_delta');
    assert.equal(event.text, spaced);
    assert.deepEqual(event.data.delta, { type: 'text_delta', text: 'a/b é' });
    const multiline = read('{"type": "ping",\n"n": 1}');
    assert.equal(multiline.text, undefined);
    assert.deepEqual(multiline.data, { type: 'ping', n: 1 });
  });

  it('Messages: an upstream event is written as its text; message_start, relabelled, is serialised', () => {
    const start = read('{"type":"message_start","message":{"id":"msg_up","model":"claude-up","content":[]}}');
    const delta = read('{"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": "x\\/y"}}');
    const ping = read('{"type": "ping",\n"n": 1}');
    const { writer, written } = recorder();
    void messagesCodec().chunk(writer, chunkOf('anthropic-messages', [start, delta, ping]));
    assert.deepEqual(written, [
      ['message_start', '{"type":"message_start","message":{"id":"gen-1","model":"vendor/model","content":[]}}'],
      ['content_block_delta', delta.text],
      ['ping', '{"type":"ping","n":1}'],
    ]);
  });

  it('Responses: an event without a response object is written as its text; one with it is relabelled', () => {
    const created = read(
      '{"type":"response.created","sequence_number":0,"response":{"id":"resp_up","model":"up","output":[]}}',
    );
    const delta = read('{"type": "response.output_text.delta", "sequence_number": 1, "delta": "a\\/b"}');
    const { writer, written } = recorder();
    void responsesCodec().chunk(writer, chunkOf('openai-responses', [created, delta]));
    assert.equal(written.length, 2);
    assert.equal(written[0]?.[0], 'response.created');
    const relabelled = JSON.parse(written[0]?.[1] ?? '{}') as { response: { id: string; model: string } };
    assert.equal(relabelled.response.id, 'gen-1');
    assert.equal(relabelled.response.model, 'vendor/model');
    assert.deepEqual(written[1], ['response.output_text.delta', delta.text]);
  });
});
