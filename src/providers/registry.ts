import { UpstreamHttpClient, type UpstreamHttpClientOptions } from '../upstream/index.js';
import { AnthropicAdapter } from './anthropic/adapter.js';
import { AzureOpenAiAdapter } from './azure/adapter.js';
import { BedrockAdapter } from './bedrock/adapter.js';
import { DemoAdapter, type DemoAdapterOptions } from './demo/adapter.js';
import { GeminiAdapter } from './google/gemini-adapter.js';
import { VertexAdapter } from './google/vertex-adapter.js';
import { OpenAiCompatibleAdapter } from './openai-compatible/adapter.js';
import type { ProviderAdapter, ProviderKind } from '../wire/adapter.js';

export interface ProviderRegistry {
  get(kind: ProviderKind): ProviderAdapter;
  /** Closes the upstream pools (when the registry created its own client). */
  close(): Promise<void>;
}

export interface ProviderRegistryOptions {
  /** Share one client (and its pools) with other users; otherwise the registry owns one. */
  http?: UpstreamHttpClient;
  /** Options of the client the registry creates when none is shared (answer size limits). */
  upstream?: UpstreamHttpClientOptions;
  demo?: DemoAdapterOptions;
}

/** The adapters of one gateway instance, sharing one upstream HTTP client. */
export function createProviderRegistry(options: ProviderRegistryOptions = {}): ProviderRegistry {
  const http = options.http ?? new UpstreamHttpClient(options.upstream);
  const owns = options.http === undefined;
  const adapters: Record<ProviderKind, ProviderAdapter> = {
    openai: new OpenAiCompatibleAdapter(http),
    anthropic: new AnthropicAdapter(http),
    demo: new DemoAdapter(options.demo),
    azure: new AzureOpenAiAdapter(http),
    bedrock: new BedrockAdapter(http),
    gemini: new GeminiAdapter(http),
    vertex: new VertexAdapter(http),
  };
  return {
    get(kind: ProviderKind): ProviderAdapter {
      const adapter = adapters[kind];
      if (adapter === undefined) throw new Error(`Unknown provider kind: ${String(kind)}`);
      return adapter;
    },
    async close(): Promise<void> {
      if (owns) await http.close();
    },
  };
}
