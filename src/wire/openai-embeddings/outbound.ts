import {
  decodeBase64Embedding,
  embeddingTexts,
  estimateTokens,
  makeUsage,
  type CanonicalEmbedding,
  type CanonicalEmbeddingsRequest,
  type CanonicalEmbeddingsResponse,
} from '../../canonical/index.js';
import { int, isRecord, str, type JsonRecord } from '../../canonical/json.js';

/** The upstream `/embeddings` body: the client's extra fields, then the typed ones. */
export function embeddingsBody(req: CanonicalEmbeddingsRequest): JsonRecord {
  const body: JsonRecord = { ...req.extra, model: req.model, input: req.input };
  if (req.dimensions !== undefined) body.dimensions = req.dimensions;
  if (req.encoding_format !== undefined) body.encoding_format = req.encoding_format;
  if (req.user !== undefined) body.user = req.user;
  return body;
}

function vector(value: unknown): number[] | null {
  if (typeof value === 'string') return decodeBase64Embedding(value);
  if (!Array.isArray(value)) return null;
  const out: number[] = [];
  for (const v of value) {
    if (typeof v !== 'number' || !Number.isFinite(v)) return null;
    out.push(v);
  }
  return out;
}

/**
 * Reads an upstream embeddings answer (float arrays or base64 strings) into the canonical form;
 * null when it is not one. Usage the upstream leaves out is counted with the tokenizer.
 */
export function embeddingsResponse(
  body: unknown,
  req: CanonicalEmbeddingsRequest,
  fallbackId: string,
): CanonicalEmbeddingsResponse | null {
  if (!isRecord(body) || !Array.isArray(body.data)) return null;
  const data: CanonicalEmbedding[] = [];
  for (const [position, item] of body.data.entries()) {
    if (!isRecord(item)) return null;
    const embedding = vector(item.embedding);
    if (embedding === null) return null;
    data.push({ index: int(item.index) ?? position, embedding });
  }
  data.sort((a, b) => a.index - b.index);
  const usage: JsonRecord = isRecord(body.usage) ? body.usage : {};
  const prompt = int(usage.prompt_tokens);
  return {
    id: str(body.id) ?? fallbackId,
    object: 'list',
    model: str(body.model) ?? req.model,
    data,
    usage:
      prompt === undefined
        ? { ...makeUsage(estimatedTokens(req), 0), estimated: true }
        : { prompt_tokens: prompt, completion_tokens: 0, total_tokens: int(usage.total_tokens) ?? prompt },
  };
}

function estimatedTokens(req: CanonicalEmbeddingsRequest): number {
  let tokens = 0;
  if (typeof req.input !== 'string' && req.input.length > 0 && typeof req.input[0] !== 'string') {
    for (const item of req.input) tokens += Array.isArray(item) ? item.length : 1;
  } else for (const text of embeddingTexts(req.input)) tokens += estimateTokens(text);
  return tokens;
}
