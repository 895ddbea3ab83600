import { isRecord, int, type JsonRecord } from '../../canonical/json.js';
import { isTokenInput, type CanonicalEmbeddingsRequest } from '../../canonical/index.js';
import { errors } from '../../errors/index.js';

/**
 * Embeddings on Bedrock through InvokeModel, in each model family's own body: Titan Text
 * Embeddings (one text per call) and Cohere Embed (up to 96 texts per call, an `input_type`).
 */

export type EmbeddingFamily = 'titan' | 'cohere';

/** Cohere on Bedrock takes at most this many texts in one call. */
export const COHERE_BATCH = 96;

export function embeddingFamily(modelId: string): EmbeddingFamily {
  if (/(^|[./:])amazon\.titan-embed-/.test(modelId)) return 'titan';
  if (/(^|[./:])cohere\.embed-/.test(modelId)) return 'cohere';
  throw errors.invalidRequest(
    `Bedrock embeddings are served by Titan Text Embeddings and Cohere Embed models, not ${modelId}`,
  );
}

/** The texts to embed, in order (token-id input has no Bedrock equivalent). */
export function embeddingInputs(req: CanonicalEmbeddingsRequest): string[] {
  if (isTokenInput(req.input))
    throw errors.invalidRequest('Bedrock embeddings take text input, not token ids', { field: 'input' });
  return typeof req.input === 'string' ? [req.input] : req.input.filter((t): t is string => typeof t === 'string');
}

export function titanBody(text: string, req: CanonicalEmbeddingsRequest): JsonRecord {
  const body: JsonRecord = { inputText: text };
  if (req.dimensions !== undefined) body.dimensions = req.dimensions;
  return body;
}

/** Cohere's `input_type` is the client's extra field of that name, else `search_document`. */
export function cohereBody(texts: string[], req: CanonicalEmbeddingsRequest): JsonRecord {
  const inputType = typeof req.extra.input_type === 'string' ? req.extra.input_type : 'search_document';
  const body: JsonRecord = { texts, input_type: inputType, embedding_types: ['float'] };
  if (typeof req.extra.truncate === 'string') body.truncate = req.extra.truncate;
  return body;
}

function floats(value: unknown): number[] | null {
  if (!Array.isArray(value)) return null;
  return value.every((v) => typeof v === 'number' && Number.isFinite(v)) ? (value as number[]) : null;
}

/** Titan's answer: one vector and its token count; null when it is not one. */
export function titanVector(body: unknown): { embedding: number[]; tokens: number | null } | null {
  if (!isRecord(body)) return null;
  const embedding =
    floats(body.embedding) ?? (isRecord(body.embeddingsByType) ? floats(body.embeddingsByType.float) : null);
  return embedding === null ? null : { embedding, tokens: int(body.inputTextTokenCount) ?? null };
}

/** Cohere's answer (by type, or plain floats): one vector per text; null when it is not one. */
export function cohereVectors(body: unknown, count: number): number[][] | null {
  if (!isRecord(body)) return null;
  const list = isRecord(body.embeddings) ? body.embeddings.float : body.embeddings;
  if (!Array.isArray(list) || list.length !== count) return null;
  const out: number[][] = [];
  for (const item of list) {
    const v = floats(item);
    if (v === null) return null;
    out.push(v);
  }
  return out;
}
