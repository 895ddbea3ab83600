import type { CanonicalChatRequest, CanonicalChatResponse, CanonicalChunk } from '../../canonical/index.js';
import {
  failFromResponse,
  protocolError,
  type UpstreamHttpClient,
  type UpstreamResponse,
} from '../../upstream/index.js';
import { primeStream } from '../primed-stream.js';
import type { CallContext, ProviderAdapter, ProviderEndpointConfig } from '../types.js';
import { cachedWireTarget, type WireTarget } from '../wire-target.js';
import { messagesBody } from './request.js';
import { messagesResponse } from './response.js';
import { anthropicChunks } from './stream.js';

export const ANTHROPIC_VERSION = '2023-06-01';

/** URL and headers of the Messages API for an endpoint, built once per (frozen) endpoint config. */
export function messagesTarget(endpoint: ProviderEndpointConfig, stream: boolean): WireTarget {
  return cachedWireTarget(endpoint, `anthropic ${stream ? 'stream' : 'json'} /messages`, () => {
    const headers: Record<string, string> = {
      accept: stream ? 'text/event-stream' : 'application/json',
      'content-type': 'application/json',
      'anthropic-version': ANTHROPIC_VERSION,
    };
    if (endpoint.apiKey !== null) headers['x-api-key'] = endpoint.apiKey;
    return { url: `${endpoint.baseUrl.replace(/\/+$/, '')}/messages`, headers: { ...headers, ...endpoint.headers } };
  });
}

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
    const call = {
      url: target.url,
      headers: target.headers,
      body: JSON.stringify(messagesBody(req, stream)),
      providerId: endpoint.providerId,
      apiKey: endpoint.apiKey,
      timeouts: endpoint.timeouts,
      signal: ctx.signal,
    };
    const res = await this.http.send(call);
    if (res.status < 200 || res.status > 299) await failFromResponse(res, call);
    return res;
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
}
