import type {
  CanonicalChatRequest,
  CanonicalChatResponse,
  CanonicalChunk,
  CanonicalEmbeddingsRequest,
  CanonicalEmbeddingsResponse,
} from '../../canonical/index.js';
import { int, isRecord } from '../../canonical/json.js';
import { protocolError, type UpstreamHttpClient } from '../../upstream/index.js';
import type { CallContext, ProviderAdapter, ProviderEndpointConfig } from '../../wire/adapter.js';
import {
  batchEmbedBody,
  batchEmbedResponse,
  generateContentBody,
  generateContentResponse,
  geminiChunks,
} from '../../wire/gemini-generate/index.js';
import { primeStream } from '../../wire/primed-stream.js';
import { postTo } from '../wire-target.js';
import { googleTarget } from './target.js';

/**
 * Chat over Gemini's `generateContent` (the Gemini API, and Vertex AI's Google models): JSON, and
 * `streamGenerateContent?alt=sse` primed so errors before the first event can fall back. Legacy
 * completions go through chat.
 */
export async function geminiChat(
  http: UpstreamHttpClient,
  endpoint: ProviderEndpointConfig,
  req: CanonicalChatRequest,
  ctx: CallContext,
): Promise<CanonicalChatResponse> {
  const target = googleTarget(endpoint, req.model, 'generateContent');
  const res = await postTo(http, endpoint, target, JSON.stringify(generateContentBody(req)), ctx);
  const out = generateContentResponse(await res.json(), { model: req.model, id: `gen-${ctx.requestId}` });
  if (out === null) throw protocolError(endpoint.providerId, 'Provider returned a body without candidates');
  return out;
}

export async function geminiChatStream(
  http: UpstreamHttpClient,
  endpoint: ProviderEndpointConfig,
  req: CanonicalChatRequest,
  ctx: CallContext,
): Promise<AsyncIterable<CanonicalChunk>> {
  const target = googleTarget(endpoint, req.model, 'streamGenerateContent');
  const res = await postTo(http, endpoint, target, JSON.stringify(generateContentBody(req)), ctx);
  return primeStream(
    geminiChunks(res, {
      providerId: endpoint.providerId,
      apiKey: endpoint.apiKey,
      fallbackId: `gen-${ctx.requestId}`,
      model: req.model,
    }),
  );
}

/**
 * `countTokens` for a chat: the Gemini API takes the whole request under `generateContentRequest`
 * (with its model), Vertex AI the request's fields themselves.
 */
export async function geminiCountTokens(
  http: UpstreamHttpClient,
  endpoint: ProviderEndpointConfig,
  req: CanonicalChatRequest,
  ctx: CallContext,
): Promise<number> {
  const target = googleTarget(endpoint, req.model, 'countTokens');
  const { generationConfig: _config, ...request } = generateContentBody(req);
  const body =
    endpoint.kind === 'vertex'
      ? request
      : { generateContentRequest: { model: `models/${req.model.replace(/^models\//, '')}`, ...request } };
  const res = await postTo(http, endpoint, target, JSON.stringify(body), ctx);
  const answer: unknown = await res.json();
  const total = isRecord(answer) ? int(answer.totalTokens) : undefined;
  if (total === undefined) throw protocolError(endpoint.providerId, 'Provider returned a count without totalTokens');
  return total;
}

/** The Gemini API (`kind: gemini`): an API key in `x-goog-api-key`; chat and embeddings. */
export class GeminiAdapter implements ProviderAdapter {
  readonly kind = 'gemini' as const;

  constructor(private readonly http: UpstreamHttpClient) {}

  chat(endpoint: ProviderEndpointConfig, req: CanonicalChatRequest, ctx: CallContext): Promise<CanonicalChatResponse> {
    return geminiChat(this.http, endpoint, req, ctx);
  }

  chatStream(
    endpoint: ProviderEndpointConfig,
    req: CanonicalChatRequest,
    ctx: CallContext,
  ): Promise<AsyncIterable<CanonicalChunk>> {
    return geminiChatStream(this.http, endpoint, req, ctx);
  }

  countTokens(endpoint: ProviderEndpointConfig, req: CanonicalChatRequest, ctx: CallContext): Promise<number> {
    return geminiCountTokens(this.http, endpoint, req, ctx);
  }

  /** Every input in one `batchEmbedContents` call. */
  async embeddings(
    endpoint: ProviderEndpointConfig,
    req: CanonicalEmbeddingsRequest,
    ctx: CallContext,
  ): Promise<CanonicalEmbeddingsResponse> {
    const model = req.model.replace(/^models\//, '');
    const target = googleTarget(endpoint, model, 'batchEmbedContents');
    const res = await postTo(this.http, endpoint, target, JSON.stringify(batchEmbedBody(req, model)), ctx);
    const out = batchEmbedResponse(await res.json(), req, `emb-${ctx.requestId}`);
    if (out === null) throw protocolError(endpoint.providerId, 'Provider returned a body without embeddings');
    return out;
  }
}
