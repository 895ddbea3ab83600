import type { FakeBehaviour } from './behaviour.js';
import type { Json } from './json.js';

/** Dimensions of the fake's vectors unless the request sets `dimensions`. */
export const FAKE_EMBEDDING_DIMENSIONS = 8;
/** Prompt tokens the fake reports per input item. */
export const FAKE_EMBEDDING_TOKENS_PER_INPUT = 5;

/** The fake's vector for input `index`: multiples of 1/8, exact in float32 (base64 round trips are lossless). */
export function fakeEmbedding(index: number, dimensions = FAKE_EMBEDDING_DIMENSIONS): number[] {
  return Array.from({ length: dimensions }, (_, i) => (((index + i) % 8) - 4) / 8);
}

function count(input: unknown): number {
  if (!Array.isArray(input)) return 1;
  return input.length > 0 && typeof input[0] === 'number' ? 1 : input.length;
}

function base64(vector: number[]): string {
  const bytes = Buffer.alloc(vector.length * 4);
  vector.forEach((v, i) => bytes.writeFloatLE(v, i * 4));
  return bytes.toString('base64');
}

/** OpenAI's `/embeddings` answer: floats, or base64 little-endian float32 when asked. */
export function embeddingsJson(body: Json, b: FakeBehaviour): Json {
  const n = count(body.input);
  const dimensions = typeof body.dimensions === 'number' ? body.dimensions : FAKE_EMBEDDING_DIMENSIONS;
  const asBase64 = body.encoding_format === 'base64';
  const out: Json = {
    object: 'list',
    data: Array.from({ length: n }, (_, index) => {
      const vector = fakeEmbedding(index, dimensions);
      return { object: 'embedding', index, embedding: asBase64 ? base64(vector) : vector };
    }),
    model: typeof body.model === 'string' ? body.model : 'unknown',
  };
  if (!b.noUsage) {
    const tokens = n * FAKE_EMBEDDING_TOKENS_PER_INPUT;
    out.usage = { prompt_tokens: tokens, total_tokens: tokens };
  }
  return out;
}
