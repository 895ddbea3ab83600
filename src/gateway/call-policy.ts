import type { RateLimit } from '../domain/accounting/rate-book.js';
import type { Budget } from '../domain/accounting/types.js';
import type { KeyRecord } from '../domain/keys/types.js';
import type { PolicyRule, RoutingPolicy } from '../domain/routing/index.js';
import type { CompiledFilterSet } from '../filters/index.js';

/**
 * What governs one key's model calls, combined from every guardrail that applies to it (the
 * key's own, its creator's as a member, its workspace's; docs/guardrails.md): routing
 * restrictions, budgets per assignee and the content filters. Resolved per call from a cache
 * (call-policy-cache.ts).
 */
export interface CallPolicy {
  routing: RoutingPolicy;
  /** Guardrail `limit_usd` budgets, each against its assignee's account. */
  budgets: readonly Budget[];
  /** Guardrail `requests_per_minute` / `tokens_per_minute`, each against its assignee's account. */
  rateLimits: readonly RateLimit[];
  /** Every filter of every guardrail, combined; null when none applies. */
  filters: CompiledFilterSet | null;
  /** The guardrails that set each routing rule, so a 403 can name them. */
  ruleSources: Readonly<Partial<Record<PolicyRule, readonly string[]>>>;
}

export interface CallPolicyResolver {
  resolve(key: KeyRecord): Promise<CallPolicy>;
  /**
   * The key's policy when it is cached and current, else null (then `resolve` loads it): a call
   * whose policy is known takes it without a promise and a microtask hop.
   */
  cached?(key: KeyRecord): CallPolicy | null;
}
