import { encodeBase64Embedding, type EmbeddingsRequestBody } from '../../canonical/index.js';
import type { Codec } from '../codec.js';

/**
 * `POST /embeddings` (OpenAI's shape, plus a top-level `id`: the generation id, and the
 * provider's name). Vectors go out as the client asked: float arrays, or base64 little-endian
 * float32 (the `openai` SDK asks for base64 unless told otherwise). One codec per request.
 */
export function embeddingsCodec(): Codec<'embeddings', EmbeddingsRequestBody> {
  let base64 = false;
  return {
    apiType: 'embeddings',
    decode(body) {
      base64 = body.encoding_format === 'base64';
      return { kind: 'embeddings', body };
    },
    answer(value) {
      return {
        id: value.id,
        object: 'list',
        data: value.data.map((d) => ({
          object: 'embedding',
          index: d.index,
          embedding: base64 ? encodeBase64Embedding(d.embedding) : d.embedding,
        })),
        model: value.model,
        usage: {
          prompt_tokens: value.usage.prompt_tokens,
          total_tokens: value.usage.total_tokens,
          cost: value.usage.cost,
        },
        provider: value.provider,
      };
    },
    // Embeddings are never streamed (the body schema refuses `stream: true`).
    chunk: () => undefined,
    streamError: () => undefined,
    endStream: (writer) => writer.end(),
  };
}
