import type {
  CanonicalChatRequest,
  CanonicalChatResponse,
  CanonicalChunk,
  CanonicalEmbeddingsRequest,
  CanonicalEmbeddingsResponse,
  NativeUpstreamRequest,
} from '../../canonical/index.js';
import type { UpstreamHttpClient } from '../../upstream/index.js';
import type { CallContext, ProviderAdapter, ProviderEndpointConfig } from '../../wire/adapter.js';
import { OpenAiCompatibleAdapter } from '../openai-compatible/adapter.js';
import { AZURE_ROUTING } from './target.js';

/**
 * Azure OpenAI: OpenAI's chat-completions and embeddings wire (encoded and decoded as for any
 * OpenAI-compatible upstream) at Azure's URLs (target.ts), with the `api-key` header or an Entra
 * ID token as the credential. Content-filter finishes (`finish_reason: content_filter`) reach the
 * client as that finish; a prompt Azure's filter refuses is its 400 `content_filter`, passed on as
 * a 400. Legacy completions go through chat (completion models are retired on Azure). A provider
 * on the v1 API that declares `native_responses` takes `/responses` natively at
 * `{base_url}/openai/v1/responses` (the catalog refuses the declaration on a dated API).
 */
export class AzureOpenAiAdapter implements ProviderAdapter {
  readonly kind = 'azure' as const;
  private readonly openai: OpenAiCompatibleAdapter;

  constructor(http: UpstreamHttpClient) {
    this.openai = new OpenAiCompatibleAdapter(http, AZURE_ROUTING);
  }

  chat(endpoint: ProviderEndpointConfig, req: CanonicalChatRequest, ctx: CallContext): Promise<CanonicalChatResponse> {
    return this.openai.chat(endpoint, req, ctx);
  }

  chatStream(
    endpoint: ProviderEndpointConfig,
    req: CanonicalChatRequest,
    ctx: CallContext,
  ): Promise<AsyncIterable<CanonicalChunk>> {
    return this.openai.chatStream(endpoint, req, ctx);
  }

  native(
    endpoint: ProviderEndpointConfig,
    req: NativeUpstreamRequest,
    ctx: CallContext,
  ): Promise<CanonicalChatResponse> {
    return this.openai.native(endpoint, req, ctx);
  }

  nativeStream(
    endpoint: ProviderEndpointConfig,
    req: NativeUpstreamRequest,
    ctx: CallContext,
  ): Promise<AsyncIterable<CanonicalChunk>> {
    return this.openai.nativeStream(endpoint, req, ctx);
  }

  embeddings(
    endpoint: ProviderEndpointConfig,
    req: CanonicalEmbeddingsRequest,
    ctx: CallContext,
  ): Promise<CanonicalEmbeddingsResponse> {
    return this.openai.embeddings(endpoint, req, ctx);
  }
}
