import {
  embeddingTexts,
  estimateTokens,
  isTokenInput,
  makeUsage,
  type CanonicalEmbedding,
  type CanonicalEmbeddingsRequest,
  type CanonicalEmbeddingsResponse,
} from '../../canonical/index.js';
import { errors } from '../../errors/index.js';
import { isRecord, type JsonRecord } from '../../canonical/json.js';

/**
 * Embeddings over Gemini's `batchEmbedContents` (one request per input text, all naming the
 * model as `models/{m}`). Gemini reports no token usage for embeddings, so usage is counted with
 * the tokenizer and marked estimated.
 */
export function batchEmbedBody(req: CanonicalEmbeddingsRequest, model: string): JsonRecord {
  if (isTokenInput(req.input)) throw errors.invalidRequest('Gemini embeddings take text input, not token ids');
  const requests = embeddingTexts(req.input).map((text) => {
    const one: JsonRecord = { model: `models/${model}`, content: { parts: [{ text }] } };
    if (req.dimensions !== undefined) one.outputDimensionality = req.dimensions;
    return one;
  });
  return { requests };
}

/** A `batchEmbedContents` answer → canonical; null when the body is not one. */
export function batchEmbedResponse(
  body: unknown,
  req: CanonicalEmbeddingsRequest,
  id: string,
): CanonicalEmbeddingsResponse | null {
  if (!isRecord(body) || !Array.isArray(body.embeddings)) return null;
  const data: CanonicalEmbedding[] = [];
  for (const [index, item] of body.embeddings.entries()) {
    if (!isRecord(item) || !Array.isArray(item.values)) return null;
    const values = item.values.filter((v): v is number => typeof v === 'number' && Number.isFinite(v));
    if (values.length !== item.values.length) return null;
    data.push({ index, embedding: values });
  }
  let tokens = 0;
  for (const text of embeddingTexts(req.input)) tokens += estimateTokens(text);
  return { id, object: 'list', model: req.model, data, usage: { ...makeUsage(tokens, 0), estimated: true } };
}
