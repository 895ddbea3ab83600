import type {
  CanonicalChatRequest,
  CanonicalChatResponse,
  CanonicalChunk,
  CanonicalEmbeddingsRequest,
  CanonicalEmbeddingsResponse,
  NativeUpstreamRequest,
} from '../../canonical/index.js';
import { str, type JsonRecord } from '../../canonical/json.js';
import { protocolError, type UpstreamHttpClient, type UpstreamResponse } from '../../upstream/index.js';
import type { CallContext, ProviderAdapter, ProviderEndpointConfig } from '../../wire/adapter.js';
import { messagesBodyOf, nativeChunks, nativeMessage } from '../../wire/anthropic-messages/outbound/native.js';
import { messagesBody } from '../../wire/anthropic-messages/outbound/request.js';
import { primeStream } from '../../wire/primed-stream.js';
import { claudeAnswer, claudeStream } from '../anthropic/answers.js';
import { postTo, type WireTarget } from '../wire-target.js';
import { geminiChat, geminiChatStream, geminiCountTokens } from './gemini-adapter.js';
import { googleTarget, vertexModel } from './target.js';
import { vertexEmbeddings } from './vertex-embeddings.js';

/** The `anthropic_version` Vertex AI's Claude models take in the body (not Anthropic's dated header). */
export const VERTEX_ANTHROPIC_VERSION = 'vertex-2023-10-16';

/**
 * Vertex AI (`kind: vertex`), Google access tokens: Google's models over `generateContent`,
 * Anthropic's over `rawPredict` / `streamRawPredict` with a Messages body (no `model`: it is in
 * the URL; `anthropic_version` in the body). A Messages call to a Claude model goes natively.
 * Embeddings through Google's embedding models' `:predict`.
 */
export class VertexAdapter implements ProviderAdapter {
  readonly kind = 'vertex' as const;

  constructor(private readonly http: UpstreamHttpClient) {}

  private isClaude(upstreamModel: string): boolean {
    return vertexModel(upstreamModel).publisher === 'anthropic';
  }

  /** A Messages body to a Claude model: `model` moved into the URL, Vertex's version in the body. */
  private postClaude(
    endpoint: ProviderEndpointConfig,
    model: string,
    body: JsonRecord,
    ctx: CallContext,
  ): Promise<UpstreamResponse> {
    const stream = body.stream === true;
    const { model: _model, ...rest } = body;
    const target = withBeta(googleTarget(endpoint, model, stream ? 'streamRawPredict' : 'rawPredict'), ctx);
    const payload = { ...rest, anthropic_version: VERTEX_ANTHROPIC_VERSION };
    return postTo(this.http, endpoint, target, JSON.stringify(payload), ctx);
  }

  async chat(
    endpoint: ProviderEndpointConfig,
    req: CanonicalChatRequest,
    ctx: CallContext,
  ): Promise<CanonicalChatResponse> {
    if (!this.isClaude(req.model)) return geminiChat(this.http, endpoint, req, ctx);
    const res = await this.postClaude(endpoint, req.model, messagesBody(req, false, ctx.maxOutputTokens), ctx);
    return claudeAnswer(res, endpoint, req, ctx);
  }

  async chatStream(
    endpoint: ProviderEndpointConfig,
    req: CanonicalChatRequest,
    ctx: CallContext,
  ): Promise<AsyncIterable<CanonicalChunk>> {
    if (!this.isClaude(req.model)) return geminiChatStream(this.http, endpoint, req, ctx);
    const res = await this.postClaude(endpoint, req.model, messagesBody(req, true, ctx.maxOutputTokens), ctx);
    return claudeStream(res, endpoint, req, ctx);
  }

  /** Google's models count with `countTokens`; a Claude model has no count here (the estimate is used). */
  async countTokens(endpoint: ProviderEndpointConfig, req: CanonicalChatRequest, ctx: CallContext): Promise<number> {
    if (this.isClaude(req.model)) throw protocolError(endpoint.providerId, 'No token count for this model');
    return geminiCountTokens(this.http, endpoint, req, ctx);
  }

  embeddings(
    endpoint: ProviderEndpointConfig,
    req: CanonicalEmbeddingsRequest,
    ctx: CallContext,
  ): Promise<CanonicalEmbeddingsResponse> {
    return vertexEmbeddings(this.http, endpoint, req, ctx);
  }

  /** A client's Messages body as written (only Claude models are sent here: `nativeMessages`). */
  async native(
    endpoint: ProviderEndpointConfig,
    req: NativeUpstreamRequest,
    ctx: CallContext,
  ): Promise<CanonicalChatResponse> {
    const body = messagesBodyOf(req);
    const model = str(body.model) ?? '';
    const res = await this.postClaude(endpoint, model, { ...body, stream: false }, ctx);
    return nativeMessage(await res.json(), endpoint.providerId, { id: `msg-${ctx.requestId}`, model });
  }

  async nativeStream(
    endpoint: ProviderEndpointConfig,
    req: NativeUpstreamRequest,
    ctx: CallContext,
  ): Promise<AsyncIterable<CanonicalChunk>> {
    const body = messagesBodyOf(req);
    const model = str(body.model) ?? '';
    const res = await this.postClaude(endpoint, model, { ...body, stream: true }, ctx);
    return primeStream(nativeChunks(res, endpoint.providerId, endpoint.apiKey, model));
  }
}

/** The client's `anthropic-beta` values, which Vertex AI reads from the header as Anthropic does. */
function withBeta(target: WireTarget, ctx: CallContext): WireTarget {
  const beta = ctx.forwardHeaders?.['anthropic-beta'];
  if (beta === undefined || beta === '') return target;
  return { ...target, headers: { ...target.headers, 'anthropic-beta': beta } };
}
