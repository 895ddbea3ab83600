import type {
  CanonicalChatRequest,
  CanonicalChatResponse,
  CanonicalChunk,
  NativeUpstreamRequest,
} from '../../canonical/index.js';
import type { UpstreamHttpClient, UpstreamResponse } from '../../upstream/index.js';
import { primeStream } from '../../wire/primed-stream.js';
import type { CallContext, ProviderAdapter, ProviderEndpointConfig } from '../../wire/adapter.js';
import { messagesBodyOf, nativeChunks, nativeMessage } from '../../wire/anthropic-messages/outbound/native.js';
import { str, type JsonRecord } from '../../canonical/json.js';
import { messagesBody } from '../../wire/anthropic-messages/outbound/request.js';
import { claudeAnswer, claudeStream } from './answers.js';
import { postTo } from '../wire-target.js';
import { withForwardedHeaders } from './forward-headers.js';
import { messagesTarget } from './target.js';

export { ANTHROPIC_VERSION, messagesTarget } from './target.js';

/** Anthropic Messages API (POST {baseUrl}/messages). Legacy completions go through chat. */
export class AnthropicAdapter implements ProviderAdapter {
  readonly kind = 'anthropic' as const;

  constructor(private readonly http: UpstreamHttpClient) {}

  private async post(
    endpoint: ProviderEndpointConfig,
    req: CanonicalChatRequest,
    stream: boolean,
    ctx: CallContext,
  ): Promise<UpstreamResponse> {
    const target = messagesTarget(endpoint, stream);
    return postTo(this.http, endpoint, target, JSON.stringify(messagesBody(req, stream, ctx.maxOutputTokens)), ctx);
  }

  async chat(
    endpoint: ProviderEndpointConfig,
    req: CanonicalChatRequest,
    ctx: CallContext,
  ): Promise<CanonicalChatResponse> {
    const res = await this.post(endpoint, req, false, ctx);
    return claudeAnswer(res, endpoint, req, ctx);
  }

  async chatStream(
    endpoint: ProviderEndpointConfig,
    req: CanonicalChatRequest,
    ctx: CallContext,
  ): Promise<AsyncIterable<CanonicalChunk>> {
    const res = await this.post(endpoint, req, true, ctx);
    return claudeStream(res, endpoint, req, ctx);
  }

  /** A Messages body passed through natively (`model` already the upstream's; `stream` set here). */
  private postNative(endpoint: ProviderEndpointConfig, body: JsonRecord, ctx: CallContext): Promise<UpstreamResponse> {
    const target = withForwardedHeaders(messagesTarget(endpoint, body.stream === true), ctx.forwardHeaders);
    return postTo(this.http, endpoint, target, JSON.stringify(body), ctx);
  }

  async native(
    endpoint: ProviderEndpointConfig,
    req: NativeUpstreamRequest,
    ctx: CallContext,
  ): Promise<CanonicalChatResponse> {
    const res = await this.postNative(endpoint, { ...messagesBodyOf(req), stream: false }, ctx);
    return nativeMessage(await res.json(), endpoint.providerId, {
      id: `msg-${ctx.requestId}`,
      model: str(req.body.model) ?? '',
    });
  }

  /** The same, streamed: primed like chatStream, so errors before the first event can fall back. */
  async nativeStream(
    endpoint: ProviderEndpointConfig,
    req: NativeUpstreamRequest,
    ctx: CallContext,
  ): Promise<AsyncIterable<CanonicalChunk>> {
    const res = await this.postNative(endpoint, { ...messagesBodyOf(req), stream: true }, ctx);
    return primeStream(nativeChunks(res, endpoint.providerId, endpoint.apiKey, str(req.body.model) ?? ''));
  }
}
