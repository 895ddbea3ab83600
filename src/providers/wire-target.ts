import {
  failFromResponse,
  type UpstreamCall,
  type UpstreamHttpClient,
  type UpstreamResponse,
  type VendorError,
} from '../upstream/index.js';
import type { CallContext, ProviderEndpointConfig } from '../wire/adapter.js';

/**
 * URL and headers of one endpoint and call kind: built once per (frozen) endpoint config. The
 * headers hold no credential (that is the endpoint's `auth`, asked per request); `readError` is
 * the dialect's reader of the upstream's error bodies.
 */
export interface WireTarget {
  url: string;
  headers: Readonly<Record<string, string>>;
  readError: (body: unknown) => VendorError;
}

const targets = new WeakMap<ProviderEndpointConfig, Map<string, WireTarget>>();

/**
 * The target named `key` (wire format, path, streaming) of an endpoint, cached per endpoint
 * config when it is frozen (the gateway builds one per catalog provider and shares it); the
 * headers object is frozen too, so the HTTP client can reuse its own merge of it. A mutable
 * config is never cached.
 */
export function cachedWireTarget(endpoint: ProviderEndpointConfig, key: string, build: () => WireTarget): WireTarget {
  if (!Object.isFrozen(endpoint)) return build();
  let byKey = targets.get(endpoint);
  if (byKey === undefined) {
    byKey = new Map();
    targets.set(endpoint, byKey);
  }
  let target = byKey.get(key);
  if (target === undefined) {
    target = build();
    Object.freeze(target.headers);
    byKey.set(key, target);
  }
  return target;
}

/** The upstream call of a JSON body to a target of the endpoint, with the call's trace context. */
export function upstreamCall(
  endpoint: ProviderEndpointConfig,
  target: WireTarget,
  body: string,
  ctx: CallContext,
): UpstreamCall {
  return {
    url: target.url,
    headers: target.headers,
    auth: endpoint.auth,
    traceHeaders: ctx.traceHeaders,
    body,
    providerId: endpoint.providerId,
    apiKey: endpoint.apiKey,
    timeouts: endpoint.timeouts,
    signal: ctx.signal,
  };
}

/**
 * POSTs a JSON body to a target of the endpoint; resolves with a 2xx response, rejects with the
 * upstream's error (its body read and mapped) otherwise.
 */
export async function postTo(
  http: UpstreamHttpClient,
  endpoint: ProviderEndpointConfig,
  target: WireTarget,
  body: string,
  ctx: CallContext,
): Promise<UpstreamResponse> {
  const call = upstreamCall(endpoint, target, body, ctx);
  const res = await http.send(call);
  if (res.status < 200 || res.status > 299) await failFromResponse(res, call, target.readError);
  return res;
}
