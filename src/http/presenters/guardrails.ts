import type { Static } from '@sinclair/typebox';
import type { ZdrGroup, ZdrVendor } from '../../catalog/index.js';
import { errors } from '../../errors/index.js';
import { builtinLabel } from '../../filters/index.js';
import type {
  GuardrailInput,
  GuardrailRecord,
  KeyAssignmentRecord,
  MemberAssignmentRecord,
} from '../../domain/guardrails/types.js';
import type {
  GuardrailObject,
  KeyAssignmentObject,
  MemberAssignmentObject,
  UpdateGuardrailBody,
} from '../schemas/guardrails.js';

/** The single organization of a self-hosted install (MemberAssignment.organization_id). */
export const ORGANIZATION_ID = 'org_default';

export function presentGuardrail(g: GuardrailRecord): Static<typeof GuardrailObject> {
  return {
    id: g.id,
    name: g.name,
    created_at: g.createdAt,
    workspace_id: g.workspaceId,
    description: g.description,
    allowed_models: g.allowedModels,
    allowed_providers: g.allowedProviders,
    ignored_models: g.ignoredModels,
    ignored_providers: g.ignoredProviders,
    limit_usd: g.limitUsd,
    reset_interval: g.resetInterval,
    enforce_zdr: g.enforceZdr,
    enforce_zdr_vendor_a: g.zdr.vendor_a,
    enforce_zdr_vendor_b: g.zdr.vendor_b,
    enforce_zdr_vendor_c: g.zdr.vendor_c,
    enforce_zdr_vendor_d: g.zdr.vendor_d,
    enforce_zdr_other: g.zdr.other,
    content_filter_builtins:
      g.contentFilterBuiltins?.map((b) => ({
        slug: b.slug,
        action: b.action,
        label: builtinLabel(b.slug),
        ...(b.slug === 'regex-prompt-injection' ? { scan_scope: b.scan_scope ?? 'all_messages' } : {}),
      })) ?? null,
    content_filters: g.contentFilters?.map((c) => ({ pattern: c.pattern, action: c.action, label: c.label })) ?? null,
    updated_at: g.updatedAt,
    include_byok_in_budgets: g.includeByokInBudgets,
    requests_per_minute: g.requestsPerMinute,
    tokens_per_minute: g.tokensPerMinute,
  };
}

export function presentKeyAssignment(a: KeyAssignmentRecord): Static<typeof KeyAssignmentObject> {
  return {
    id: a.id,
    guardrail_id: a.guardrailId,
    key_hash: a.keyHash,
    key_label: a.keyLabel,
    key_name: a.keyName,
    assigned_by: a.assignedBy,
    created_at: a.createdAt,
  };
}

export function presentMemberAssignment(a: MemberAssignmentRecord): Static<typeof MemberAssignmentObject> {
  return {
    id: a.id,
    guardrail_id: a.guardrailId,
    user_id: a.userId,
    organization_id: ORGANIZATION_ID,
    assigned_by: a.assignedBy,
    created_at: a.createdAt,
  };
}

type Body = Static<typeof UpdateGuardrailBody>;

function flag(body: Record<string, unknown>, key: string): boolean | null | undefined {
  const value = body[key];
  return value === true || value === false || value === null ? value : undefined;
}

/**
 * Per-group ZDR flags the body sets explicitly, under the API's `enforce_zdr_*` names or the configured vendor
 * aliases (`enforce_zdr_anthropic` → vendor_a). Both names with different values: 400.
 */
function zdrFlags(
  body: Record<string, unknown>,
  vendorNames: Readonly<Record<ZdrVendor, string>>,
): Partial<Record<ZdrGroup, boolean | null>> {
  const out: Partial<Record<ZdrGroup, boolean | null>> = {};
  for (const group of ['vendor_a', 'vendor_b', 'vendor_c', 'vendor_d', 'other'] as const) {
    const seedName = `enforce_zdr_${group}`;
    const seedValue = flag(body, seedName);
    const aliasName = group === 'other' ? null : `enforce_zdr_${vendorNames[group].toLowerCase()}`;
    const aliasValue = aliasName === null || aliasName === seedName ? undefined : flag(body, aliasName);
    if (seedValue !== undefined && aliasValue !== undefined && seedValue !== aliasValue) {
      throw errors.invalidRequest(
        `${aliasName ?? seedName}: conflicts with ${seedName} (same vendor, different value)`,
        {
          field: aliasName ?? seedName,
        },
      );
    }
    const value = seedValue !== undefined ? seedValue : aliasValue;
    if (value !== undefined) out[group] = value;
  }
  return out;
}

/** Wire body (snake_case, all optional) → domain input. */
export function guardrailInputFrom(body: Body, vendorNames: Readonly<Record<ZdrVendor, string>>): GuardrailInput {
  const input: GuardrailInput = {};
  if (body.name !== undefined) input.name = body.name;
  if (body.description !== undefined) input.description = body.description;
  if (body.allowed_models !== undefined) input.allowedModels = body.allowed_models;
  if (body.allowed_providers !== undefined) input.allowedProviders = body.allowed_providers;
  if (body.ignored_models !== undefined) input.ignoredModels = body.ignored_models;
  if (body.ignored_providers !== undefined) input.ignoredProviders = body.ignored_providers;
  if (body.limit_usd !== undefined) input.limitUsd = body.limit_usd;
  if (body.reset_interval !== undefined) input.resetInterval = body.reset_interval;
  if (body.enforce_zdr !== undefined) input.enforceZdr = body.enforce_zdr;
  input.zdr = zdrFlags(body, vendorNames);
  if (body.content_filter_builtins !== undefined) {
    input.contentFilterBuiltins =
      body.content_filter_builtins?.map((b) => ({
        slug: b.slug,
        action: b.action,
        ...(b.scan_scope !== undefined ? { scanScope: b.scan_scope } : {}),
      })) ?? null;
  }
  if (body.content_filters !== undefined) {
    input.contentFilters =
      body.content_filters?.map((c) => ({ pattern: c.pattern, action: c.action, label: c.label ?? null })) ?? null;
  }
  if (body.include_byok_in_budgets !== undefined) input.includeByokInBudgets = body.include_byok_in_budgets;
  if (body.requests_per_minute !== undefined) input.requestsPerMinute = body.requests_per_minute;
  if (body.tokens_per_minute !== undefined) input.tokensPerMinute = body.tokens_per_minute;
  return input;
}
