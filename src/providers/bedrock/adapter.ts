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
import { messagesBodyOf, nativeMessage } from '../../wire/anthropic-messages/outbound/native.js';
import { converseBody } from '../../wire/bedrock-converse/request.js';
import { converseResponse } from '../../wire/bedrock-converse/response.js';
import { converseChunks } from '../../wire/bedrock-converse/stream.js';
import { invokeAnthropicBody, invokeAnthropicChunks } from '../../wire/bedrock-invoke/anthropic.js';
import { primeStream } from '../../wire/primed-stream.js';
import { bedrockEmbeddings } from './embeddings.js';
import { bedrockTarget, postToBedrock, type BedrockOperation } from './target.js';

/**
 * AWS Bedrock Runtime. Chat (and legacy completions, through chat) over Converse /
 * ConverseStream, for every model Bedrock serves; a Messages call to a Claude model goes natively
 * through InvokeModel / InvokeModelWithResponseStream; embeddings through InvokeModel in the
 * model family's own body. An endpoint's `upstream_model` is the Bedrock model id, inference-profile
 * id or ARN.
 */
export class BedrockAdapter implements ProviderAdapter {
  readonly kind = 'bedrock' as const;

  constructor(private readonly http: UpstreamHttpClient) {}

  /** POSTs `body` to an operation of the model; the HTTP answer once it is 2xx. */
  post(
    endpoint: ProviderEndpointConfig,
    modelId: string,
    operation: BedrockOperation,
    body: JsonRecord,
    ctx: CallContext,
  ): Promise<UpstreamResponse> {
    return postToBedrock(this.http, endpoint, bedrockTarget(endpoint, modelId, operation), JSON.stringify(body), ctx);
  }

  async chat(
    endpoint: ProviderEndpointConfig,
    req: CanonicalChatRequest,
    ctx: CallContext,
  ): Promise<CanonicalChatResponse> {
    const body = converseBody(req, req.model, ctx.maxOutputTokens ?? null);
    const res = await this.post(endpoint, req.model, 'converse', body, ctx);
    const out = converseResponse(await res.json(), { model: req.model, id: `gen-${ctx.requestId}` });
    if (out === null) throw protocolError(endpoint.providerId, 'Provider returned a body without an output message');
    return out;
  }

  async chatStream(
    endpoint: ProviderEndpointConfig,
    req: CanonicalChatRequest,
    ctx: CallContext,
  ): Promise<AsyncIterable<CanonicalChunk>> {
    const body = converseBody(req, req.model, ctx.maxOutputTokens ?? null);
    const res = await this.post(endpoint, req.model, 'converse-stream', body, ctx);
    return primeStream(
      converseChunks(res, {
        providerId: endpoint.providerId,
        apiKey: endpoint.apiKey,
        id: `gen-${ctx.requestId}`,
        model: req.model,
      }),
    );
  }

  /** A Messages body for a Claude model (the gateway sends only those here), through InvokeModel. */
  async native(
    endpoint: ProviderEndpointConfig,
    req: NativeUpstreamRequest,
    ctx: CallContext,
  ): Promise<CanonicalChatResponse> {
    const modelId = str(messagesBodyOf(req).model) ?? '';
    const res = await this.post(endpoint, modelId, 'invoke', invokeAnthropicBody(req.body, ctx.forwardHeaders), ctx);
    return nativeMessage(await res.json(), endpoint.providerId, { id: `msg-${ctx.requestId}`, model: modelId });
  }

  async nativeStream(
    endpoint: ProviderEndpointConfig,
    req: NativeUpstreamRequest,
    ctx: CallContext,
  ): Promise<AsyncIterable<CanonicalChunk>> {
    const modelId = str(messagesBodyOf(req).model) ?? '';
    const invoke = invokeAnthropicBody(req.body, ctx.forwardHeaders);
    const res = await this.post(endpoint, modelId, 'invoke-with-response-stream', invoke, ctx);
    return primeStream(
      invokeAnthropicChunks(res, {
        providerId: endpoint.providerId,
        apiKey: endpoint.apiKey,
        model: modelId,
      }),
    );
  }

  embeddings(
    endpoint: ProviderEndpointConfig,
    req: CanonicalEmbeddingsRequest,
    ctx: CallContext,
  ): Promise<CanonicalEmbeddingsResponse> {
    return bedrockEmbeddings({ adapter: this, endpoint, req, ctx });
  }
}
