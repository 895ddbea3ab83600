import {
  embeddingsAnswer,
  estimateTokens,
  type CanonicalEmbedding,
  type CanonicalEmbeddingsRequest,
  type CanonicalEmbeddingsResponse,
} from '../../canonical/index.js';
import { protocolError, type UpstreamResponse } from '../../upstream/index.js';
import type { CallContext, ProviderEndpointConfig } from '../../wire/adapter.js';
import {
  COHERE_BATCH,
  cohereBody,
  cohereVectors,
  embeddingFamily,
  embeddingInputs,
  titanBody,
  titanVector,
} from '../../wire/bedrock-invoke/embeddings.js';
import type { BedrockAdapter } from './adapter.js';

/** What embeddings need of the adapter: its POST to an operation of a model. */
type Poster = Pick<BedrockAdapter, 'post'>;

/** Titan embeds one text per call: a few calls run at once, the rest wait their turn. */
const TITAN_PARALLEL = 4;

/**
 * Embeddings through InvokeModel: Titan one text a call, Cohere up to 96 texts a call. Usage is
 * what Bedrock counted (Titan's `inputTextTokenCount`, the input-token header otherwise), else
 * our estimate, marked as such.
 */
export async function bedrockEmbeddings(options: {
  adapter: Poster;
  endpoint: ProviderEndpointConfig;
  req: CanonicalEmbeddingsRequest;
  ctx: CallContext;
}): Promise<CanonicalEmbeddingsResponse> {
  const { adapter, endpoint, req, ctx } = options;
  const family = embeddingFamily(req.model);
  const texts = embeddingInputs(req);
  const data: CanonicalEmbedding[] = [];
  let tokens = 0;
  let estimated = false;
  const count = (reported: number | null, batch: string[]): void => {
    if (reported === null) {
      estimated = true;
      for (const t of batch) tokens += estimateTokens(t);
    } else tokens += reported;
  };
  if (family === 'titan') {
    for (let start = 0; start < texts.length; start += TITAN_PARALLEL) {
      const slice = texts.slice(start, start + TITAN_PARALLEL);
      const answers = await Promise.all(
        slice.map(async (text) => {
          const res = await adapter.post(endpoint, req.model, 'invoke', titanBody(text, req), ctx);
          return { vector: titanVector(await res.json()), header: headerCount(res) };
        }),
      );
      answers.forEach((a, i) => {
        if (a.vector === null)
          throw protocolError(endpoint.providerId, 'Provider returned a body without an embedding');
        data.push({ index: start + i, embedding: a.vector.embedding });
        count(a.vector.tokens ?? a.header, [slice[i] ?? '']);
      });
    }
  } else {
    for (let start = 0; start < texts.length; start += COHERE_BATCH) {
      const batch = texts.slice(start, start + COHERE_BATCH);
      const res = await adapter.post(endpoint, req.model, 'invoke', cohereBody(batch, req), ctx);
      const vectors = cohereVectors(await res.json(), batch.length);
      if (vectors === null) throw protocolError(endpoint.providerId, 'Provider returned a body without embeddings');
      vectors.forEach((embedding, i) => data.push({ index: start + i, embedding }));
      count(headerCount(res), batch);
    }
  }
  return embeddingsAnswer({ id: `gen-${ctx.requestId}`, model: req.model, data, tokens, estimated });
}

function headerCount(res: UpstreamResponse): number | null {
  const raw = res.headers['x-amzn-bedrock-input-token-count'];
  const value = Array.isArray(raw) ? raw[0] : raw;
  if (value === undefined || !/^\d+$/.test(value)) return null;
  return Number(value);
}
