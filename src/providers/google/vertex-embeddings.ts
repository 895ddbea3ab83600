import {
  embeddingsAnswer,
  estimateTokens,
  type CanonicalEmbedding,
  type CanonicalEmbeddingsRequest,
  type CanonicalEmbeddingsResponse,
} from '../../canonical/index.js';
import { errors } from '../../errors/index.js';
import { protocolError, type UpstreamHttpClient } from '../../upstream/index.js';
import type { CallContext, ProviderEndpointConfig } from '../../wire/adapter.js';
import {
  predictBatchSize,
  predictBody,
  predictInputs,
  predictVectors,
  type PredictVectors,
} from '../../wire/gemini-generate/index.js';
import { postTo } from '../wire-target.js';
import { googleTarget, vertexModel } from './target.js';

/** Batches sent at once (gemini-embedding takes one text a call): the rest wait their turn. */
const PARALLEL = 4;

/**
 * Embeddings on Vertex AI through `:predict` of a Google model, in batches the model takes.
 * Usage is the sum of Vertex's per-text `token_count`; a batch without counts is estimated with
 * the gateway's tokenizer and the usage marked as such.
 */
export async function vertexEmbeddings(
  http: UpstreamHttpClient,
  endpoint: ProviderEndpointConfig,
  req: CanonicalEmbeddingsRequest,
  ctx: CallContext,
): Promise<CanonicalEmbeddingsResponse> {
  const { publisher, model } = vertexModel(req.model);
  if (publisher !== 'google')
    throw errors.invalidRequest(`Vertex AI serves embeddings from Google's models, not ${req.model}`, {
      field: 'model',
    });
  const texts = predictInputs(req);
  const size = predictBatchSize(model);
  const batches: string[][] = [];
  for (let start = 0; start < texts.length; start += size) batches.push(texts.slice(start, start + size));
  const target = googleTarget(endpoint, req.model, 'predict');
  const predict = async (batch: string[]): Promise<PredictVectors> => {
    const res = await postTo(http, endpoint, target, JSON.stringify(predictBody(batch, req)), ctx);
    const out = predictVectors(await res.json(), batch.length);
    if (out === null) throw protocolError(endpoint.providerId, 'Provider returned a body without predictions');
    return out;
  };
  const data: CanonicalEmbedding[] = [];
  let tokens = 0;
  let estimated = false;
  for (let first = 0; first < batches.length; first += PARALLEL) {
    const group = batches.slice(first, first + PARALLEL);
    const answers = await Promise.all(group.map(predict));
    answers.forEach((answer, i) => {
      for (const embedding of answer.vectors) data.push({ index: data.length, embedding });
      if (answer.tokens !== null) tokens += answer.tokens;
      else {
        estimated = true;
        for (const text of group[i] ?? []) tokens += estimateTokens(text);
      }
    });
  }
  return embeddingsAnswer({ id: `gen-${ctx.requestId}`, model: req.model, data, tokens, estimated });
}
