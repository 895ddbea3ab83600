export type { ProviderAdapter, ProviderEndpointConfig, ProviderKind, CallContext } from './types.js';
export { createProviderRegistry, type ProviderRegistry, type ProviderRegistryOptions } from './registry.js';
export {
  completionViaChat,
  completionStreamViaChat,
  completionToChatRequest,
  legacyCompletion,
} from './completion-via-chat.js';
export { OpenAiCompatibleAdapter } from './openai-compatible/adapter.js';
export { AnthropicAdapter, ANTHROPIC_VERSION } from './anthropic/adapter.js';
export { DemoAdapter, type DemoAdapterOptions } from './demo/adapter.js';
export { UpstreamError, isUpstreamError } from '../upstream/upstream-error.js';
