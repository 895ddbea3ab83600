import { readOpenAiError } from '../../wire/openai-chat/outbound/error-body.js';
import type { ProviderEndpointConfig } from '../../wire/adapter.js';
import { cachedWireTarget, type WireTarget } from '../wire-target.js';

/** The headers of every call; the credential is the endpoint's `auth`, added per request. */
export function requestHeaders(endpoint: ProviderEndpointConfig, stream: boolean): Record<string, string> {
  const headers: Record<string, string> = {
    accept: stream ? 'text/event-stream' : 'application/json',
    'content-type': 'application/json',
  };
  return { ...headers, ...endpoint.headers };
}

export function endpointUrl(endpoint: ProviderEndpointConfig, path: string): string {
  return endpoint.baseUrl.replace(/\/+$/, '') + path;
}

/** `endpointUrl` and `requestHeaders` for `path` and `stream`, built once per frozen endpoint config. */
export function wireTarget(endpoint: ProviderEndpointConfig, path: string, stream: boolean): WireTarget {
  return cachedWireTarget(endpoint, `openai ${stream ? 'stream' : 'json'} ${path}`, () => ({
    url: endpointUrl(endpoint, path),
    headers: requestHeaders(endpoint, stream),
    readError: readOpenAiError,
  }));
}
