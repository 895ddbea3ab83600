import type { ProviderEndpointConfig } from './types.js';

/** URL and headers of one endpoint and call kind: built once per (frozen) endpoint config. */
export interface WireTarget {
  url: string;
  headers: Readonly<Record<string, string>>;
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
