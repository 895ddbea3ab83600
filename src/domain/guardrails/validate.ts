import type { ZdrGroup } from '../../catalog/index.js';
import { validatePattern } from '../../filters/index.js';
import { errors } from '../../errors/index.js';
import type { BuiltinFilterEntry, CustomFilterEntry, GuardrailInput, GuardrailPatch, ZdrFlags } from './types.js';

/** What the guardrail rules need from the catalog. */
export interface ModelLookup {
  findModel(slugOrCanonical: string): { canonicalSlug: string } | undefined;
}

export const ZDR_GROUPS: readonly ZdrGroup[] = ['vendor_a', 'vendor_b', 'vendor_c', 'vendor_d', 'other'];
const PII_ACTIONS = new Set(['block', 'redact']);

const invalid = (field: string, message: string, extra: Record<string, unknown> = {}) =>
  errors.invalidRequest(`${field}: ${message}`, { field, ...extra });

/** Slug or canonical slug → canonical slug; an unknown model is a 400 naming it. */
function canonicalModels(
  field: string,
  models: string[] | null | undefined,
  catalog: ModelLookup,
): string[] | null | undefined {
  if (models === undefined || models === null) return models;
  const out: string[] = [];
  models.forEach((slug, i) => {
    const model = catalog.findModel(slug);
    if (model === undefined) throw invalid(`${field}[${i}]`, `unknown model ${slug}`, { model: slug });
    if (!out.includes(model.canonicalSlug)) out.push(model.canonicalSlug);
  });
  return out;
}

/** A builtin filter names a known slug and an action; `label` is dropped; `scan_scope` only for regex-prompt-injection. */
function builtins(input: GuardrailInput['contentFilterBuiltins']): BuiltinFilterEntry[] | null | undefined {
  if (input === undefined || input === null) return input;
  const seen = new Set<string>();
  return input.map((entry, i) => {
    const field = `content_filter_builtins[${i}]`;
    if (seen.has(entry.slug)) throw invalid(`${field}.slug`, `duplicate builtin filter ${entry.slug}`);
    seen.add(entry.slug);
    if (entry.slug === 'regex-prompt-injection') {
      return { slug: entry.slug, action: entry.action, scan_scope: entry.scanScope ?? 'all_messages' };
    }
    if (!PII_ACTIONS.has(entry.action)) {
      throw invalid(
        `${field}.action`,
        `${entry.slug} accepts only block or redact (flag is for regex-prompt-injection)`,
      );
    }
    if (entry.scanScope !== undefined) {
      throw invalid(`${field}.scan_scope`, 'scan_scope applies only to regex-prompt-injection');
    }
    return { slug: entry.slug, action: entry.action };
  });
}

/** Custom patterns must compile with RE2 now, not fail at request time. */
function customFilters(input: GuardrailInput['contentFilters']): CustomFilterEntry[] | null | undefined {
  if (input === undefined || input === null) return input;
  return input.map((entry, i) => {
    const reason = validatePattern(entry.pattern);
    if (reason !== null) {
      throw invalid(`content_filters[${i}].pattern`, `invalid regex pattern (${reason})`, {
        reason: 'invalid_regex_pattern',
      });
    }
    return { pattern: entry.pattern, action: entry.action, label: entry.label ?? null };
  });
}

/**
 * Rule Z: each per-group flag not given on the request takes `enforce_zdr`'s value when
 * `enforce_zdr` is given (null included); explicit per-group values win.
 */
export function resolveZdr(input: GuardrailInput): Partial<ZdrFlags> {
  const out: Partial<ZdrFlags> = {};
  for (const group of ZDR_GROUPS) {
    const explicit = input.zdr?.[group];
    if (explicit !== undefined) out[group] = explicit;
    else if (input.enforceZdr !== undefined) out[group] = input.enforceZdr;
  }
  return out;
}

/** Validated, normalised column-level patch for the fields the input carries. */
export function toPatch(input: GuardrailInput, catalog: ModelLookup): GuardrailPatch {
  const patch: GuardrailPatch = {};
  if (input.name !== undefined) patch.name = input.name;
  if (input.description !== undefined) patch.description = input.description;
  const allowed = canonicalModels('allowed_models', input.allowedModels, catalog);
  if (allowed !== undefined) patch.allowedModels = allowed;
  const ignored = canonicalModels('ignored_models', input.ignoredModels, catalog);
  if (ignored !== undefined) patch.ignoredModels = ignored;
  if (input.allowedProviders !== undefined) patch.allowedProviders = input.allowedProviders;
  if (input.ignoredProviders !== undefined) patch.ignoredProviders = input.ignoredProviders;
  if (input.limitUsd !== undefined) patch.limitUsd = input.limitUsd;
  if (input.requestsPerMinute !== undefined) patch.requestsPerMinute = input.requestsPerMinute;
  if (input.tokensPerMinute !== undefined) patch.tokensPerMinute = input.tokensPerMinute;
  if (input.resetInterval !== undefined) patch.resetInterval = input.resetInterval;
  if (input.enforceZdr !== undefined) patch.enforceZdr = input.enforceZdr;
  const zdr = resolveZdr(input);
  if (Object.keys(zdr).length > 0) patch.zdr = zdr;
  const b = builtins(input.contentFilterBuiltins);
  if (b !== undefined) patch.contentFilterBuiltins = b;
  const c = customFilters(input.contentFilters);
  if (c !== undefined) patch.contentFilters = c;
  if (input.includeByokInBudgets !== undefined) patch.includeByokInBudgets = input.includeByokInBudgets;
  return patch;
}

/**
 * A reset interval needs a limit (the resulting guardrail may not carry a reset_interval with a
 * null limit_usd); a limit alone is fine and never resets. Names the field the request sent.
 */
export function checkLimitPair(
  input: GuardrailInput,
  result: { limitUsd: number | null; resetInterval: string | null },
): void {
  if (result.resetInterval === null || result.limitUsd !== null) return;
  const field = input.resetInterval !== undefined ? 'reset_interval' : 'limit_usd';
  throw invalid(field, 'a reset_interval requires a limit_usd; send limit_usd with it, or set reset_interval to null');
}
