import type { ProviderEndpointConfig } from '../../wire/adapter.js';
import { readAnthropicError } from '../../wire/anthropic-messages/outbound/error-body.js';
import { cachedWireTarget, type WireTarget } from '../wire-target.js';

export const ANTHROPIC_VERSION = '2023-06-01';

/** URL and headers of the Messages API for an endpoint, built once per (frozen) endpoint config. */
export function messagesTarget(endpoint: ProviderEndpointConfig, stream: boolean): WireTarget {
  return cachedWireTarget(endpoint, `anthropic ${stream ? 'stream' : 'json'} /messages`, () => {
    const headers: Record<string, string> = {
      accept: stream ? 'text/event-stream' : 'application/json',
      'content-type': 'application/json',
      'anthropic-version': ANTHROPIC_VERSION,
    };
    return {
      url: `${endpoint.baseUrl.replace(/\/+$/, '')}/messages`,
      headers: { ...headers, ...endpoint.headers },
      readError: readAnthropicError,
    };
  });
}
