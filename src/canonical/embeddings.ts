import type { CanonicalUsage } from './usage.js';

/**
 * Embeddings (`POST /embeddings`, the OpenAI shape). `model` is the UPSTREAM name. Vectors are
 * numbers in the canonical form whatever the upstream sent; the HTTP edge encodes them as the
 * client asked (`float` arrays, or `base64` little-endian float32 as OpenAI does).
 */
export type EmbeddingsInput = string | string[] | number[] | number[][];

export type EmbeddingsEncoding = 'float' | 'base64';

export interface CanonicalEmbeddingsRequest {
  model: string;
  input: EmbeddingsInput;
  dimensions?: number;
  /** What the client asked for; adapters may ask their upstream for either. */
  encoding_format?: EmbeddingsEncoding;
  user?: string;
  /** Other client fields, forwarded untouched to OpenAI-compatible upstreams. */
  extra: Record<string, unknown>;
}

export interface CanonicalEmbedding {
  index: number;
  embedding: number[];
}

export interface CanonicalEmbeddingsResponse {
  /** The upstream's id when it sends one (OpenAI's does not), else one of ours. */
  id: string;
  object: 'list';
  /** The upstream model name that served the request. */
  model: string;
  data: CanonicalEmbedding[];
  /** Input tokens as `prompt_tokens`; `completion_tokens` is always 0. */
  usage: CanonicalUsage;
}

/** The texts of an input (token-array inputs carry none). */
export function embeddingTexts(input: EmbeddingsInput): string[] {
  if (typeof input === 'string') return [input];
  return input.filter((item): item is string => typeof item === 'string');
}

/**
 * An answer assembled from an upstream's vectors (in order) and the input tokens it counted;
 * `estimated` when any were counted with the gateway's tokenizer instead.
 */
export function embeddingsAnswer(options: {
  id: string;
  model: string;
  data: CanonicalEmbedding[];
  tokens: number;
  estimated: boolean;
}): CanonicalEmbeddingsResponse {
  const { tokens } = options;
  const usage: CanonicalUsage = { prompt_tokens: tokens, completion_tokens: 0, total_tokens: tokens };
  if (options.estimated) usage.estimated = true;
  return { id: options.id, object: 'list', model: options.model, data: options.data, usage };
}

/** True when the input is token ids (one array of numbers, or an array of them). */
export function isTokenInput(input: EmbeddingsInput): boolean {
  return Array.isArray(input) && input.length > 0 && typeof input[0] !== 'string';
}

/** Number of vectors the input asks for. */
export function embeddingCount(input: EmbeddingsInput): number {
  if (typeof input === 'string') return 1;
  if (input.length > 0 && typeof input[0] === 'number') return 1;
  return input.length;
}

/** A vector as OpenAI's base64 encoding: the float32 values, little-endian, base64. */
export function encodeBase64Embedding(vector: readonly number[]): string {
  const bytes = Buffer.alloc(vector.length * 4);
  vector.forEach((v, i) => bytes.writeFloatLE(v, i * 4));
  return bytes.toString('base64');
}

/** The inverse of encodeBase64Embedding; null when the text is not a whole number of float32s. */
export function decodeBase64Embedding(text: string): number[] | null {
  const bytes = Buffer.from(text, 'base64');
  if (bytes.length % 4 !== 0) return null;
  const out: number[] = new Array<number>(bytes.length / 4);
  for (let i = 0; i < out.length; i++) out[i] = bytes.readFloatLE(i * 4);
  return out;
}
