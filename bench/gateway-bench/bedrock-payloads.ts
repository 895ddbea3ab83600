import { EventStreamCodec } from '@smithy/eventstream-codec';
import { ANSWER_PIECES, anthropicSseEvents, requestBody, USAGE } from './payloads.js';

/**
 * The Bedrock cell: the same chat conversation to a model whose provider is `kind: bedrock` on
 * the same fake upstream, which answers it in Converse's format (JSON, or the ConverseStream
 * binary event stream: messageStart, 17 text deltas, contentBlockStop, messageStop, metadata).
 * The gateway signs every call with SigV4 (the bench's own static test key).
 */
export const BENCH_BEDROCK_MODEL = 'bench/nova-bench';
export const BENCH_BEDROCK_PROVIDER = 'bench-bedrock';
export const BEDROCK_UPSTREAM_MODEL = 'amazon.nova-bench-v1:0';
export const BENCH_AWS_ENV = {
  AWS_ACCESS_KEY_ID: 'AKIABENCHFAKEKEY0001',
  AWS_SECRET_ACCESS_KEY: 'bench/fake/secret/key/0000000000000000001',
  AWS_EC2_METADATA_DISABLED: 'true',
};

export function bedrockRequestBody(stream: boolean): string {
  return requestBody(stream, { model: BENCH_BEDROCK_MODEL });
}

const CONVERSE_USAGE = {
  inputTokens: USAGE.prompt_tokens,
  outputTokens: USAGE.completion_tokens,
  totalTokens: USAGE.total_tokens,
};

export function converseJson(): string {
  return JSON.stringify({
    output: { message: { role: 'assistant', content: [{ text: ANSWER_PIECES.join('') }] } },
    stopReason: 'end_turn',
    usage: CONVERSE_USAGE,
    metrics: { latencyMs: 1 },
  });
}

const codec = new EventStreamCodec(
  (bytes: Uint8Array) => Buffer.from(bytes).toString('utf8'),
  (text: string) => new Uint8Array(Buffer.from(text, 'utf8')),
);

function frame(type: string, payload: unknown): Buffer {
  return Buffer.from(
    codec.encode({
      headers: {
        ':event-type': { type: 'string', value: type },
        ':content-type': { type: 'string', value: 'application/json' },
        ':message-type': { type: 'string', value: 'event' },
      },
      body: new Uint8Array(Buffer.from(JSON.stringify(payload), 'utf8')),
    }),
  );
}

export function converseStreamFrames(): Buffer[] {
  return [
    frame('messageStart', { role: 'assistant' }),
    ...ANSWER_PIECES.map((text) => frame('contentBlockDelta', { contentBlockIndex: 0, delta: { text } })),
    frame('contentBlockStop', { contentBlockIndex: 0 }),
    frame('messageStop', { stopReason: 'end_turn' }),
    frame('metadata', { usage: CONVERSE_USAGE, metrics: { latencyMs: 1 } }),
  ];
}

/**
 * Claude's streamed answer as InvokeModelWithResponseStream sends it: each of Anthropic's events
 * (`anthropicSseEvents`) base64'd inside the `bytes` of an event-stream `chunk` message.
 */
export function invokeStreamFrames(): Buffer[] {
  return anthropicSseEvents().map((sse) => {
    const data = sse.slice(sse.indexOf('data: ') + 'data: '.length).trim();
    return frame('chunk', { bytes: Buffer.from(data).toString('base64') });
  });
}
