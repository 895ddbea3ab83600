import { GATEWAY_ONLY_FIELDS, type NativeRequest, type NativeUpstreamRequest } from '../canonical/index.js';
import type { JsonRecord } from '../canonical/json.js';
import type { RouteCandidate } from '../domain/routing/index.js';
import { takesNatively, type WireDialect } from '../wire/index.js';

/**
 * Native pass-through is a property of the candidate: one whose provider takes the client's
 * dialect natively (the registry, and the catalog entry for a declared dialect) is sent the
 * client's body, `model` set to its upstream name and Switchyard's routing fields removed; any
 * other gets the canonical chat (null here).
 */
/** Whether this candidate takes the client's dialect natively (its provider's, or its upstream model's). */
export function candidateTakes(candidate: RouteCandidate, dialect: WireDialect): boolean {
  const { provider, endpoint } = candidate;
  return takesNatively(
    { kind: provider.kind, dialects: provider.nativeDialects, upstreamModel: endpoint.upstreamModel },
    dialect,
  );
}

export function nativeFor(native: NativeRequest | null, candidate: RouteCandidate): NativeUpstreamRequest | null {
  if (native === null || !candidateTakes(candidate, native.dialect)) return null;
  const body: JsonRecord = {};
  for (const [key, value] of Object.entries(native.body))
    if (!GATEWAY_ONLY_FIELDS.has(key)) body[key] = key === 'model' ? candidate.endpoint.upstreamModel : value;
  if (body.model === undefined) body.model = candidate.endpoint.upstreamModel;
  return { dialect: native.dialect, body };
}

/** Whether any candidate takes the client's dialect natively. */
export function anyNative(native: NativeRequest, candidates: readonly RouteCandidate[]): boolean {
  return candidates.some((c) => candidateTakes(c, native.dialect));
}
