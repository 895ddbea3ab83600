import type { CanonicalChatRequest, CanonicalCompletionRequest } from '../../canonical/index.js';
import { isRecord, type JsonRecord } from '../json.js';
import type { ProviderEndpointConfig } from '../types.js';

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

/** The upstream body: the client's fields untouched (extras first, typed fields over them). */
export function chatBody(req: CanonicalChatRequest, stream: boolean): JsonRecord {
  const extra = req.extra;
  const body = baseBody(req, stream);
  if (stream) {
    const current = isRecord(extra.stream_options) ? extra.stream_options : {};
    body.stream_options = { ...current, include_usage: true };
  } else {
    delete body.stream_options;
  }
  return body;
}

export function completionBody(req: CanonicalCompletionRequest, stream: boolean): JsonRecord {
  const body = baseBody(req, stream);
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

/** URL and headers of one endpoint and call kind: built once per (frozen) endpoint config. */
export interface WireTarget {
  url: string;
  headers: Readonly<Record<string, string>>;
}

const targets = new WeakMap<ProviderEndpointConfig, { json: Map<string, WireTarget>; stream: Map<string, WireTarget> }>();

/**
 * `endpointUrl` and `requestHeaders` for `path` and `stream`, cached per endpoint config when it
 * is frozen (the gateway builds one per catalog provider and shares it); the headers object is
 * frozen too, so the HTTP client can reuse its own merge of it.
 */
export function wireTarget(endpoint: ProviderEndpointConfig, path: string, stream: boolean): WireTarget {
  const build = (): WireTarget => ({ url: endpointUrl(endpoint, path), headers: Object.freeze(requestHeaders(endpoint, stream)) });
  if (!Object.isFrozen(endpoint)) return build();
  let cached = targets.get(endpoint);
  if (cached === undefined) {
    cached = { json: new Map(), stream: new Map() };
    targets.set(endpoint, cached);
  }
  const byPath = stream ? cached.stream : cached.json;
  let target = byPath.get(path);
  if (target === undefined) {
    target = build();
    byPath.set(path, target);
  }
  return target;
}
