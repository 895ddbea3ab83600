import type { CanonicalChatRequest, CanonicalCompletionRequest } from '../../canonical/index.js';
import { definedEntries, isRecord, type JsonRecord } from '../json.js';
import type { ProviderEndpointConfig } from '../types.js';

/** The upstream body: the client's fields untouched (extras first, typed fields over them). */
export function chatBody(req: CanonicalChatRequest, stream: boolean): JsonRecord {
  const { extra, ...typed } = req;
  const body: JsonRecord = { ...extra, ...definedEntries(typed), model: req.model, stream };
  if (stream) {
    const current = isRecord(extra.stream_options) ? extra.stream_options : {};
    body.stream_options = { ...current, include_usage: true };
  } else {
    delete body.stream_options;
  }
  return body;
}

export function completionBody(req: CanonicalCompletionRequest, stream: boolean): JsonRecord {
  const { extra, ...typed } = req;
  const body: JsonRecord = { ...extra, ...definedEntries(typed), model: req.model, stream };
  if (stream) body.stream_options = { include_usage: true };
  else delete body.stream_options;
  return body;
}

export function requestHeaders(endpoint: ProviderEndpointConfig, stream: boolean): Record<string, string> {
  const headers: Record<string, string> = {
    accept: stream ? 'text/event-stream' : 'application/json',
    'content-type': 'application/json',
  };
  if (endpoint.apiKey !== null) headers.authorization = `Bearer ${endpoint.apiKey}`;
  return { ...headers, ...endpoint.headers };
}

export function endpointUrl(endpoint: ProviderEndpointConfig, path: string): string {
  return endpoint.baseUrl.replace(/\/+$/, '') + path;
}
