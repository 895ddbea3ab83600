import type {
  CanonicalChatRequest,
  CanonicalChatResponse,
  CanonicalChunk,
  CanonicalCompletionChunk,
  CanonicalCompletionRequest,
  CanonicalCompletionResponse,
  CanonicalEmbeddingsRequest,
  CanonicalEmbeddingsResponse,
  NativeUpstreamRequest,
} from '../canonical/index.js';
import type { AzureSettings } from '../catalog/provider-fields/azure.js';
import type { UpstreamAuth } from '../upstream/auth/index.js';
import type { ProviderKind } from './index.js';

export type { ProviderKind };

/** One configured upstream endpoint (from config; the key is already resolved). */
export interface ProviderEndpointConfig {
  providerId: string;
  kind: ProviderKind;
  /** Includes the version prefix, e.g. `https://api.openai.com/v1`, `https://api.anthropic.com/v1`. */
  baseUrl: string;
  /** The credential of every request (src/upstream/auth); never part of a cached header object. */
  auth: UpstreamAuth;
  /** The key, only to scrub it out of error messages (null: none, or a credential that is not one string). */
  apiKey: string | null;
  /** Extra headers sent on every call (e.g. `HTTP-Referer`, `OpenAI-Organization`). */
  headers?: Record<string, string>;
  timeouts: { connectMs: number; firstByteMs: number; idleMs: number };
  /** Kind `azure` only: which Azure OpenAI API the URLs follow (absent for other kinds). */
  azure?: AzureSettings;
  /** Vertex AI's project and location (its URLs name them); absent on other kinds. */
  google?: { readonly project: string; readonly location: string } | null;
}

export interface CallContext {
  /** Aborting it aborts the upstream request and frees its socket (client disconnect). */
  signal: AbortSignal;
  requestId: string;
  /** The attempt's W3C trace context, sent upstream (only when tracing is on). */
  traceHeaders?: Readonly<Record<string, string>> | undefined;
  /** Client headers a native pass-through forwards (the `anthropic-*` allow-list); others ignore them. */
  forwardHeaders?: Readonly<Record<string, string>>;
  /** The catalog's output limit of the model called: the `max_tokens` an upstream that requires one gets by default. */
  maxOutputTokens?: number | null;
}

/**
 * Every adapter does chat and chatStream; legacy completions are optional (absent: the gateway
 * uses completionViaChat). All failures are UpstreamError (src/upstream).
 */
export interface ProviderAdapter {
  readonly kind: ProviderKind;
  chat(endpoint: ProviderEndpointConfig, req: CanonicalChatRequest, ctx: CallContext): Promise<CanonicalChatResponse>;
  /**
   * Resolves once the upstream answered 2xx AND delivered its first event, so errors before the
   * first token (HTTP errors, timeouts, an immediate error event) still reject and the caller can
   * fall back. After that, failures surface as the iterator throwing UpstreamError. The last
   * chunk carries `usage`. Breaking out of the loop aborts the upstream request. Every chunk is a
   * new object that the adapter keeps no reference to: the caller may change it in place.
   */
  chatStream(
    endpoint: ProviderEndpointConfig,
    req: CanonicalChatRequest,
    ctx: CallContext,
  ): Promise<AsyncIterable<CanonicalChunk>>;
  completion?(
    endpoint: ProviderEndpointConfig,
    req: CanonicalCompletionRequest,
    ctx: CallContext,
  ): Promise<CanonicalCompletionResponse>;
  completionStream?(
    endpoint: ProviderEndpointConfig,
    req: CanonicalCompletionRequest,
    ctx: CallContext,
  ): Promise<AsyncIterable<CanonicalCompletionChunk>>;
  /**
   * Native pass-through, for a dialect the kind speaks besides chat (src/wire/index.ts): the
   * client's body as written, `model` set to the upstream's. The answer and the chunks are
   * canonical readings (finish, usage, streamed text) carrying the upstream's own body or events
   * (`native`), which the client's codec writes as they are. The stream is primed as chatStream's.
   */
  native?(
    endpoint: ProviderEndpointConfig,
    req: NativeUpstreamRequest,
    ctx: CallContext,
  ): Promise<CanonicalChatResponse>;
  nativeStream?(
    endpoint: ProviderEndpointConfig,
    req: NativeUpstreamRequest,
    ctx: CallContext,
  ): Promise<AsyncIterable<CanonicalChunk>>;
  /**
   * The prompt tokens of a chat as the upstream's own tokenizer counts them (Gemini's
   * `countTokens`); absent where the upstream has no such call (`count_tokens` then estimates).
   */
  countTokens?(endpoint: ProviderEndpointConfig, req: CanonicalChatRequest, ctx: CallContext): Promise<number>;
  /** Absent on wire formats without embeddings (the catalog refuses such endpoints for embedding models). */
  embeddings?(
    endpoint: ProviderEndpointConfig,
    req: CanonicalEmbeddingsRequest,
    ctx: CallContext,
  ): Promise<CanonicalEmbeddingsResponse>;
}
