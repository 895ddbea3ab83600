import type { CanonicalChatRequest, CanonicalChatResponse, CanonicalChunk } from '../../canonical/index.js';
import { protocolError, type UpstreamHttpClient, type UpstreamResponse } from '../../upstream/index.js';
import { primeStream } from '../primed-stream.js';
import type { CallContext, ProviderAdapter, ProviderEndpointConfig } from '../types.js';
import { nativeMessage, nativeMessageStream, type NativeEvent, type NativeMessage } from './native.js';
import type { JsonRecord } from '../json.js';
import { messagesBody } from './request.js';
import { messagesResponse } from './response.js';
import { anthropicChunks } from './stream.js';
import { postTo } from '../wire-target.js';
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
    const out = messagesResponse(await res.json(), { model: req.model, id: `gen-${ctx.requestId}` });
    if (out === null) throw protocolError(endpoint.providerId, 'Provider returned a body without content');
    return out;
  }

  async chatStream(
    endpoint: ProviderEndpointConfig,
    req: CanonicalChatRequest,
    ctx: CallContext,
  ): Promise<AsyncIterable<CanonicalChunk>> {
    const res = await this.post(endpoint, req, true, ctx);
    return primeStream(
      anthropicChunks(res, {
        providerId: endpoint.providerId,
        apiKey: endpoint.apiKey,
        fallbackId: `gen-${ctx.requestId}`,
        model: req.model,
      }),
    );
  }

  /** A Messages body passed through natively (`model` already the upstream's). */
  messages(endpoint: ProviderEndpointConfig, body: JsonRecord, ctx: CallContext): Promise<NativeMessage> {
    return nativeMessage(this.http, endpoint, body, ctx);
  }

  /** The same, streamed: primed like chatStream, so errors before the first event can fall back. */
  async messagesStream(
    endpoint: ProviderEndpointConfig,
    body: JsonRecord,
    ctx: CallContext,
  ): Promise<AsyncIterable<NativeEvent>> {
    return primeStream(await nativeMessageStream(this.http, endpoint, body, ctx));
  }
}
