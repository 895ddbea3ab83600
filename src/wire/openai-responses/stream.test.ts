import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { CanonicalChunk } from '../../canonical/index.js';
import { decodeResponsesRequest } from './request.js';
import type { ResponseContext } from './response.js';
import { ResponsesStreamEncoder, type ResponsesStreamEvent } from './stream.js';

/** Strings JSON escapes differently: quotes, backslashes, controls, line separators, non-ASCII, a lone surrogate. */
const AWKWARD = 'say "hi" \\ back\n\ttab \u0001 \u2028 é 日本 🙂 \ud800 </script>';

const echoes = {
  plain: decodeResponsesRequest({ model: 'm', input: 'x' }).echo,
  full: decodeResponsesRequest({
    model: 'm',
    input: 'x',
    instructions: AWKWARD,
    metadata: { team: AWKWARD },
    user: 'u-1',
    temperature: 0.5,
    max_output_tokens: 99,
    reasoning: { effort: 'high', summary: 'auto' },
    text: { format: { type: 'text' }, verbosity: 'low' },
    tools: [{ type: 'function', name: 'get_weather', parameters: { type: 'object' }, strict: true }],
  }).echo,
};

const contexts: Record<string, ResponseContext> = {
  'no provider, not stored': {
    id: 'gen-1-abc',
    model: 'openai/gpt-test',
    createdAt: 1_700_000_000,
    echo: echoes.plain,
  },
  'stored, a provider, every echo field': {
    id: 'gen-2-"odd"',
    model: 'openai/gpt-test',
    createdAt: 1_700_000_001,
    echo: echoes.full,
    provider: AWKWARD,
    store: true,
  },
};

const chunk = (delta: Record<string, unknown>, finish: string | null = null): CanonicalChunk => ({
  id: 'up',
  object: 'chat.completion.chunk',
  created: 1,
  model: 'm',
  choices: [{ index: 0, delta, finish_reason: finish }],
});
const usage = { prompt_tokens: 3, completion_tokens: 4, total_tokens: 7 };

type Read = (batch: ResponsesStreamEvent[]) => void;

/** Streams that reach every event the encoder writes; each batch is read before the next step, as the codec writes it. */
const streams: Record<string, (enc: ResponsesStreamEncoder, read: Read) => void> = {
  'text only': (enc, read) => {
    read(enc.chunk(chunk({ role: 'assistant', content: '' })));
    read(enc.chunk(chunk({ content: AWKWARD })));
    read(enc.chunk(chunk({ content: 'more' }, 'stop')));
    read(enc.complete(usage, 0.000123));
  },
  'reasoning, text, two calls, text again': (enc, read) => {
    read(enc.chunk(chunk({ reasoning: AWKWARD })));
    read(enc.chunk(chunk({ reasoning: ' more' })));
    read(enc.chunk(chunk({ content: 'Hel' })));
    read(
      enc.chunk(
        chunk({
          tool_calls: [
            { index: 0, id: 'call_1', function: { name: 'get_weather', arguments: '{"q":"' } },
            { index: 1, id: 'call_2', function: { name: AWKWARD, arguments: '' } },
          ],
        }),
      ),
    );
    read(enc.chunk(chunk({ tool_calls: [{ index: 0, function: { arguments: 'é\\n"}' } }] })));
    read(enc.chunk(chunk({ content: 'after' }, 'tool_calls')));
    read(enc.complete(usage));
  },
  'cut at the length limit': (enc, read) => {
    read(enc.chunk(chunk({ content: 'x' }, 'length')));
    read(enc.complete(usage, null));
  },
  'a refusal': (enc, read) => {
    read(enc.chunk(chunk({ refusal: AWKWARD }, 'content_filter')));
    read(enc.complete(usage));
  },
  'nothing streamed': (enc, read) => read(enc.complete(usage)),
  'failed with open items': (enc, read) => {
    read(enc.chunk(chunk({ reasoning: 'r' })));
    read(
      enc.chunk(chunk({ content: 't', tool_calls: [{ index: 0, id: 'c', function: { name: 'f', arguments: '{' } }] })),
    );
    read(enc.fail({ message: AWKWARD, status: 429 }, usage));
  },
  'failed before the start': (enc, read) => read(enc.fail({ message: 'no provider', status: 503 })),
};

describe('Responses stream encoder: the JSON text of its events', () => {
  for (const [contextName, ctx] of Object.entries(contexts))
    for (const [streamName, run] of Object.entries(streams))
      it(`is JSON.stringify's, event for event: ${streamName}; ${contextName}`, () => {
        const enc = new ResponsesStreamEncoder(ctx);
        let events = 0;
        run(enc, (batch) => {
          for (const event of batch) {
            assert.equal(enc.json(event), JSON.stringify(event), `${event.type} #${event.sequence_number}`);
            events++;
          }
        });
        assert.ok(events > 0);
      });

  it('an event replaced after the batch (a copy) is serialised as it is, not as the original was', () => {
    const enc = new ResponsesStreamEncoder(contexts['no provider, not stored'] as ResponseContext);
    enc.chunk(chunk({ content: 'a' }));
    const done = enc.complete(usage).find((e) => e.type === 'response.output_item.done');
    assert.ok(done !== undefined);
    const copy = { ...done, item: { ...(done.item as object), encrypted_content: 'sy1.x' } };
    assert.equal(enc.json(copy), JSON.stringify(copy));
    assert.match(enc.json(copy), /"encrypted_content":"sy1\.x"/);
  });

  it("a batch's texts are dropped when the next batch starts", () => {
    const enc = new ResponsesStreamEncoder(contexts['no provider, not stored'] as ResponseContext);
    const [created] = enc.chunk(chunk({ content: 'a' }));
    assert.ok(created !== undefined);
    enc.chunk(chunk({ content: 'b' }));
    // Changed after its batch: the stored text would be stale, so none is used.
    created.sequence_number = 99;
    assert.equal(enc.json(created), JSON.stringify(created));
  });
});
