import {
  estimateTokens,
  makeUsage,
  type CanonicalEmbeddingsRequest,
  type CanonicalEmbeddingsResponse,
  type EmbeddingsInput,
} from '../../canonical/index.js';

/** Dimensions of a demo vector unless the request asks for fewer (or more, up to the cap). */
export const DEMO_DIMENSIONS = 256;
const MAX_DIMENSIONS = 4096;

function fnv1a(text: string, seed = 0x811c9dc5): number {
  let h = seed;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/**
 * A deterministic unit vector for a text by feature hashing: every lowercase word adds ±1 at a
 * hashed position, so texts sharing words point in similar directions (a retrieval demo ranks
 * sensibly offline) and equal texts give equal vectors. A text without words gets one hashed axis.
 */
export function demoVector(text: string, dimensions: number): number[] {
  const out = new Array<number>(dimensions).fill(0);
  const words = text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  for (const word of words) {
    const h = fnv1a(word);
    const at = h % dimensions;
    out[at] = (out[at] ?? 0) + ((h >>> 16) & 1 ? 1 : -1);
  }
  let norm = Math.hypot(...out);
  if (norm === 0) {
    out[fnv1a(text) % dimensions] = 1;
    norm = 1;
  }
  return out.map((v) => v / norm);
}

function items(input: EmbeddingsInput): string[] {
  if (typeof input === 'string') return [input];
  const out: string[] = [];
  const tokenIds: number[] = [];
  for (const item of input) {
    if (typeof item === 'number') tokenIds.push(item);
    else out.push(typeof item === 'string' ? item : item.join(' '));
  }
  if (tokenIds.length > 0) out.push(tokenIds.join(' '));
  return out;
}

function tokens(input: EmbeddingsInput): number {
  if (typeof input === 'string') return estimateTokens(input);
  let n = 0;
  for (const item of input)
    n += typeof item === 'string' ? estimateTokens(item) : Array.isArray(item) ? item.length : 1;
  return n;
}

export function demoEmbeddings(
  req: CanonicalEmbeddingsRequest,
  id = 'gen-demo-embeddings',
): CanonicalEmbeddingsResponse {
  const dimensions = Math.min(MAX_DIMENSIONS, Math.max(1, req.dimensions ?? DEMO_DIMENSIONS));
  return {
    id,
    object: 'list',
    model: req.model,
    data: items(req.input).map((text, index) => ({ index, embedding: demoVector(text, dimensions) })),
    usage: makeUsage(tokens(req.input), 0),
  };
}
