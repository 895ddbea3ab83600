import type { CanonicalChatRequest, CanonicalCompletionRequest } from '../../canonical/index.js';
import { isRecord, type JsonRecord } from '../json.js';
import type { ProviderEndpointConfig } from '../types.js';
import { openAiChatBody, openAiCompletionBody } from './outbound-chat.js';
import { cachedWireTarget, type WireTarget } from '../wire-target.js';

/**
 * `{ ...extra, ...(req's defined fields but extra), model, stream }` in one pass (no rest copy of
 * the request, no entries array): same keys, same order, same JSON.
 */
function baseBody(req: CanonicalChatRequest | CanonicalCompletionRequest, stream: boolean): JsonRecord {
  const body: JsonRecord = { ...req.extra };
  const typed = req as unknown as JsonRecord;
  for (const key of Object.keys(typed)) {
    if (key === 'extra') continue;
    const value = typed[key];
    if (value !== undefined) body[key] = value;
  }
  body.model = req.model;
  body.stream = stream;
  return body;
}

/**
 * The upstream body: the client's fields (extras first, typed fields over them), cut to what
 * OpenAI's chat API accepts (outbound-chat.ts).
 */
export function chatBody(req: CanonicalChatRequest, stream: boolean): JsonRecord {
  const extra = req.extra;
  const body = baseBody(req, stream);
  if (stream) {
    const current = isRecord(extra.stream_options) ? extra.stream_options : {};
    body.stream_options = { ...current, include_usage: true };
  } else {
    delete body.stream_options;
  }
  return openAiChatBody(body);
}

export function completionBody(req: CanonicalCompletionRequest, stream: boolean): JsonRecord {
  const body = baseBody(req, stream);
  if (stream) body.stream_options = { include_usage: true };
  else delete body.stream_options;
  return openAiCompletionBody(body);
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

/** `endpointUrl` and `requestHeaders` for `path` and `stream`, built once per frozen endpoint config. */
export function wireTarget(endpoint: ProviderEndpointConfig, path: string, stream: boolean): WireTarget {
  return cachedWireTarget(endpoint, `openai ${stream ? 'stream' : 'json'} ${path}`, () => ({
    url: endpointUrl(endpoint, path),
    headers: requestHeaders(endpoint, stream),
  }));
}
