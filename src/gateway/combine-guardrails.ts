import { memberAccount } from '../domain/accounting/accounts.js';
import type { RateLimit } from '../domain/accounting/rate-book.js';
import type { Budget } from '../domain/accounting/types.js';
import type { GoverningGuardrail } from '../domain/guardrails/service.js';
import type { GuardrailRecord } from '../domain/guardrails/types.js';
import type { KeyRecord } from '../domain/keys/types.js';
import { providerMatches, type PolicyRule } from '../domain/routing/index.js';
import type { Catalog, ZdrGroup } from '../catalog/index.js';
import { errors } from '../errors/index.js';
import { combineFilterSets, type CompiledFilterSet } from '../filters/index.js';
import type { CallPolicy } from './call-policy.js';

const ZDR_GROUPS: readonly ZdrGroup[] = ['vendor_a', 'vendor_b', 'vendor_c', 'vendor_d', 'other'];

/** Catalog provider ids a guardrail's provider names match (id or display name, any case). */
function providerIds(catalog: Catalog, names: readonly string[]): Set<string> {
  return new Set(catalog.providers.filter((p) => providerMatches(p, names)).map((p) => p.id.toLowerCase()));
}

/** Intersection of the lists that are set; null when no guardrail sets one (no restriction). */
function intersect(lists: readonly Set<string>[]): Set<string> | null {
  const [first, ...rest] = lists;
  if (first === undefined) return null;
  return new Set([...first].filter((item) => rest.every((l) => l.has(item))));
}

function budgetOf(guardrail: GuardrailRecord, limitUsd: number, account: string, assignee: 'key' | 'member'): Budget {
  return {
    account,
    limitUsd,
    reset: guardrail.resetInterval,
    exhausted: ({ remainingUsd, estimateUsd }) =>
      errors.forbidden(
        `Guardrail "${guardrail.name}" spending limit reached: this request may cost more than the ${assignee} has left`,
        {
          rule: 'limit_usd',
          guardrail_id: guardrail.id,
          assignee,
          limit_usd: limitUsd,
          reset_interval: guardrail.resetInterval,
          limit_remaining: remainingUsd,
          estimated_cost: estimateUsd,
        },
      ),
  };
}

function rateLimitOf(guardrail: GuardrailRecord, account: string, assignee: 'key' | 'member'): RateLimit {
  return {
    account,
    requestsPerMinute: guardrail.requestsPerMinute,
    tokensPerMinute: guardrail.tokensPerMinute,
    exceeded: ({ rule, limit, remaining, resetAtMs, retryAfterSeconds }) =>
      errors.rateLimited(
        `Guardrail "${guardrail.name}" rate limit reached: ${rule} is ${limit} per ${assignee}; retry after ${retryAfterSeconds} s`,
        retryAfterSeconds,
        {
          metadata: { rule, guardrail_id: guardrail.id, assignee, limit, reset_at: new Date(resetAtMs).toISOString() },
          headers: {
            'x-ratelimit-limit': String(limit),
            'x-ratelimit-remaining': String(remaining),
            'x-ratelimit-reset': String(Math.ceil(resetAtMs / 1000)),
          },
        },
      ),
  };
}

/**
 * Combines the guardrails that govern a key (docs/guardrails.md): allow lists
 * intersect, ignore lists unite, ZDR is OR per vendor group, every budget is checked against
 * its assignee's own account (a key-assigned or workspace-default guardrail: the key's; a
 * member-assigned one: the member's), and so is every rate limit; every filter runs.
 */
export function combineGuardrails(options: {
  key: KeyRecord;
  governing: readonly GoverningGuardrail[];
  catalog: Catalog;
  filtersOf: (guardrail: GuardrailRecord) => CompiledFilterSet | null;
}): CallPolicy {
  const { key, governing, catalog } = options;
  const sources: Partial<Record<PolicyRule, string[]>> = {};
  const source = (rule: PolicyRule, id: string) => (sources[rule] ??= []).push(id);
  const allowedModels: Set<string>[] = [];
  const allowedProviders: Set<string>[] = [];
  const ignoredModels = new Set<string>();
  const ignoredProviders = new Set<string>();
  const zdrGroups = new Set<ZdrGroup>();
  const budgets: Budget[] = [];
  const rateLimits: RateLimit[] = [];
  const filterSets: CompiledFilterSet[] = [];

  for (const { guardrail: g, via } of governing) {
    if (g.allowedModels !== null) {
      allowedModels.push(new Set(g.allowedModels));
      source('allowed_models', g.id);
    }
    if (g.allowedProviders !== null) {
      allowedProviders.push(providerIds(catalog, g.allowedProviders));
      source('allowed_providers', g.id);
    }
    if (g.ignoredModels !== null && g.ignoredModels.length > 0) {
      for (const m of g.ignoredModels) ignoredModels.add(m);
      source('ignored_models', g.id);
    }
    if (g.ignoredProviders !== null && g.ignoredProviders.length > 0) {
      for (const p of g.ignoredProviders) ignoredProviders.add(p);
      source('ignored_providers', g.id);
    }
    const zdr = ZDR_GROUPS.filter((group) => g.zdr[group] === true);
    for (const group of zdr) zdrGroups.add(group);
    if (zdr.length > 0) source('zdr', g.id);
    if (g.limitUsd !== null) {
      if (via.includes('member')) budgets.push(budgetOf(g, g.limitUsd, memberAccount(key.creatorUserId), 'member'));
      if (via.includes('key') || via.includes('workspace')) budgets.push(budgetOf(g, g.limitUsd, key.hash, 'key'));
    }
    if (g.requestsPerMinute !== null || g.tokensPerMinute !== null) {
      if (via.includes('member')) rateLimits.push(rateLimitOf(g, memberAccount(key.creatorUserId), 'member'));
      if (via.includes('key') || via.includes('workspace')) rateLimits.push(rateLimitOf(g, key.hash, 'key'));
    }
    const filters = options.filtersOf(g);
    if (filters !== null) filterSets.push(filters);
  }

  return {
    routing: {
      allowedModels: intersect(allowedModels),
      ignoredModels,
      allowedProviders: intersect(allowedProviders),
      ignoredProviders,
      zdrGroups,
    },
    budgets,
    rateLimits,
    filters: filterSets.length === 0 ? null : combineFilterSets(filterSets),
    ruleSources: sources,
  };
}
