export type { ProviderAdapter, ProviderEndpointConfig, ProviderKind, CallContext } from '../wire/adapter.js';
export { createProviderRegistry, type ProviderRegistry, type ProviderRegistryOptions } from './registry.js';
export { legacyCompletion } from '../wire/openai-completions/via-chat.js';
export { endpointAuth } from './endpoint-auth.js';
