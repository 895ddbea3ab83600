import { isTokenInput, type CanonicalEmbeddingsRequest } from '../../canonical/index.js';
import { int, isRecord, type JsonRecord } from '../../canonical/json.js';
import { errors } from '../../errors/index.js';

/**
 * Embeddings on Vertex AI's `:predict` (text-embedding-005, text-multilingual-embedding-002,
 * gemini-embedding-001): `{instances: [{content, task_type?}], parameters: {outputDimensionality?}}`
 * answered by `{predictions: [{embeddings: {values, statistics: {token_count, truncated}}}]}`.
 */

/** Instances one `:predict` call takes: the text models take up to 250, gemini-embedding one. */
export function predictBatchSize(model: string): number {
  return /^gemini-embedding/.test(model) ? 1 : 250;
}

/** The texts to embed, in order (token-id input has no Vertex AI equivalent). */
export function predictInputs(req: CanonicalEmbeddingsRequest): string[] {
  if (isTokenInput(req.input))
    throw errors.invalidRequest('Vertex AI embeddings take text input, not token ids', { field: 'input' });
  return typeof req.input === 'string' ? [req.input] : req.input.filter((t): t is string => typeof t === 'string');
}

/** A `:predict` body; the client's extra `task_type` (RETRIEVAL_DOCUMENT…) goes on every instance. */
export function predictBody(texts: readonly string[], req: CanonicalEmbeddingsRequest): JsonRecord {
  const taskType = typeof req.extra.task_type === 'string' ? req.extra.task_type : undefined;
  const instances = texts.map((content) => (taskType === undefined ? { content } : { content, task_type: taskType }));
  const body: JsonRecord = { instances };
  if (req.dimensions !== undefined) body.parameters = { outputDimensionality: req.dimensions };
  return body;
}

/** One batch's vectors and the tokens Vertex counted (null when a prediction has no count). */
export interface PredictVectors {
  vectors: number[][];
  tokens: number | null;
}

/** A `:predict` answer with `count` predictions → its vectors; null when it is not one. */
export function predictVectors(body: unknown, count: number): PredictVectors | null {
  if (!isRecord(body) || !Array.isArray(body.predictions) || body.predictions.length !== count) return null;
  const vectors: number[][] = [];
  let tokens: number | null = 0;
  for (const prediction of body.predictions) {
    const embeddings = isRecord(prediction) ? prediction.embeddings : undefined;
    if (!isRecord(embeddings) || !Array.isArray(embeddings.values)) return null;
    const values = embeddings.values;
    if (!values.every((v): v is number => typeof v === 'number' && Number.isFinite(v))) return null;
    vectors.push(values);
    const counted = isRecord(embeddings.statistics) ? int(embeddings.statistics.token_count) : undefined;
    tokens = counted === undefined || tokens === null ? null : tokens + counted;
  }
  return { vectors, tokens };
}
