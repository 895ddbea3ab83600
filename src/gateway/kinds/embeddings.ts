import {
  GATEWAY_ONLY_FIELDS,
  isTokenInput,
  type CanonicalEmbeddingsRequest,
  type EmbeddingsRequestBody,
} from '../../canonical/index.js';
import { errors } from '../../errors/index.js';
import type { BodyTexts, KindStrategy } from './strategy.js';

const TYPED = new Set([
  'model',
  'models',
  'provider',
  'preset',
  'stream',
  'input',
  'dimensions',
  'encoding_format',
  'user',
]);

/** The string inputs (token-id inputs carry no text a filter can read: see `unscreenable`). */
function inputTexts(body: EmbeddingsRequestBody): BodyTexts<EmbeddingsRequestBody> {
  const input = body.input;
  const strings = typeof input === 'string' ? [input] : isTokenInput(input) ? [] : (input as string[]);
  return {
    segments: strings.map((text) => ({ role: 'user', text })),
    withTexts(changes) {
      if (typeof input === 'string') return { ...body, input: changes[0]?.text ?? input };
      const next = (input as string[]).slice();
      for (const c of changes) next[c.index] = c.text;
      return { ...body, input: next };
    },
  };
}

function canonical(body: EmbeddingsRequestBody, upstreamModel: string): CanonicalEmbeddingsRequest {
  const extra: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(body))
    if (value !== undefined && !TYPED.has(key) && !GATEWAY_ONLY_FIELDS.has(key)) extra[key] = value;
  const req: CanonicalEmbeddingsRequest = { model: upstreamModel, input: body.input, extra };
  if (body.dimensions !== undefined) req.dimensions = body.dimensions;
  if (body.encoding_format !== undefined) req.encoding_format = body.encoding_format;
  if (body.user !== undefined) req.user = body.user;
  return req;
}

/** `POST /embeddings`: one answer, no stream; usage is input tokens, priced at the model's prompt price. */
export const embeddingsStrategy: KindStrategy<'embeddings'> = {
  kind: 'embeddings',
  check: () => undefined,
  texts: inputTexts,
  unscreenable: (body) => (isTokenInput(body.input) ? 'input' : null),
  maxOutputTokens: () => 0,
  request: canonical,
  send(adapter, endpoint, req, ctx) {
    if (adapter.embeddings === undefined)
      throw errors.invalidRequest(`Provider ${endpoint.providerId} cannot serve embeddings`, { field: 'model' });
    return adapter.embeddings(endpoint, req, ctx);
  },
  sendStream() {
    throw errors.invalidRequest('Embeddings are not streamed', { field: 'stream' });
  },
  finish: () => ({ reason: null, native: null }),
  chunkFinish: () => null,
  keepText: () => undefined,
  promptText: () => '',
};
