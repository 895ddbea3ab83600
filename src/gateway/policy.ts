import type { KeyRecord } from '../domain/keys/types.js';
import { OPEN_POLICY, type RoutingPolicy } from '../domain/routing/index.js';

/**
 * What governs one key's model calls: the routing restrictions of its guardrails (and, as the
 * guardrail areas land, their budgets and content filters). Resolved per request from caches.
 */
export interface RequestPolicy {
  routing: RoutingPolicy;
}

export interface PolicyResolver {
  resolve(key: KeyRecord): Promise<RequestPolicy>;
}

export const openPolicyResolver: PolicyResolver = {
  resolve: () => Promise.resolve({ routing: OPEN_POLICY }),
};
