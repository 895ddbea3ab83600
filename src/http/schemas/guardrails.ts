import { Type, type TSchema } from '@sinclair/typebox';
import { BUILTIN_SLUGS } from '../../filters/index.js';
import { Nullable } from '../../canonical/schema-helpers.js';
import { PageQuery } from './common.js';

const literals = <T extends string>(values: readonly T[]) => Type.Union(values.map((v) => Type.Literal(v)));
const SlugEnum = literals(BUILTIN_SLUGS);
const ResetInterval = literals(['daily', 'weekly', 'monthly'] as const);
const ScanScope = literals(['user_only', 'all_messages'] as const);
const NullableFlag = Nullable(Type.Boolean());

/** A builtin filter as answered, in JSON key order. */
const BuiltinEntryObject = Type.Object({
  slug: Type.String(),
  action: Type.String(),
  label: Type.String(),
  scan_scope: Type.Optional(Type.String()),
});

/** A custom regex filter as answered, in JSON key order. */
const CustomEntryObject = Type.Object({
  pattern: Type.String(),
  action: Type.String(),
  label: Nullable(Type.String()),
});

/**
 * The guardrail object in its documented key order, then `include_byok_in_budgets` and the rate
 * limits (docs/guardrails.md).
 */
export const GuardrailObject = Type.Object({
  id: Type.String(),
  name: Type.String(),
  created_at: Type.String(),
  workspace_id: Type.String(),
  description: Nullable(Type.String()),
  allowed_models: Nullable(Type.Array(Type.String())),
  allowed_providers: Nullable(Type.Array(Type.String())),
  ignored_models: Nullable(Type.Array(Type.String())),
  ignored_providers: Nullable(Type.Array(Type.String())),
  limit_usd: Nullable(Type.Number()),
  reset_interval: Nullable(Type.String()),
  enforce_zdr: NullableFlag,
  enforce_zdr_vendor_a: NullableFlag,
  enforce_zdr_vendor_b: NullableFlag,
  enforce_zdr_vendor_c: NullableFlag,
  enforce_zdr_vendor_d: NullableFlag,
  enforce_zdr_other: NullableFlag,
  content_filter_builtins: Nullable(Type.Array(BuiltinEntryObject)),
  content_filters: Nullable(Type.Array(CustomEntryObject)),
  updated_at: Nullable(Type.String()),
  include_byok_in_budgets: Type.Boolean(),
  requests_per_minute: Nullable(Type.Integer()),
  tokens_per_minute: Nullable(Type.Integer()),
});

/** A key assignment in its documented key order. */
export const KeyAssignmentObject = Type.Object({
  id: Type.String(),
  guardrail_id: Type.String(),
  key_hash: Type.String(),
  key_label: Type.String(),
  key_name: Type.String(),
  assigned_by: Nullable(Type.String()),
  created_at: Type.String(),
});

/** A member assignment, ordered like the key assignment. */
export const MemberAssignmentObject = Type.Object({
  id: Type.String(),
  guardrail_id: Type.String(),
  user_id: Type.String(),
  organization_id: Type.String(),
  assigned_by: Nullable(Type.String()),
  created_at: Type.String(),
});

const list = <T extends TSchema>(item: T) => Type.Object({ data: Type.Array(item), total_count: Type.Integer() });
export const GuardrailList = list(GuardrailObject);
export const GuardrailEnvelope = Type.Object({ data: GuardrailObject });
export const KeyAssignmentList = list(KeyAssignmentObject);
export const MemberAssignmentList = list(MemberAssignmentObject);

const stringList = (maxLength: number) =>
  Type.Optional(Nullable(Type.Array(Type.String({ minLength: 1, maxLength }), { minItems: 1, maxItems: 1000 })));

const BuiltinEntryInput = Type.Object(
  {
    slug: SlugEnum,
    action: literals(['redact', 'block', 'flag'] as const),
    label: Type.Optional(Nullable(Type.String({ maxLength: 100 }))),
    scan_scope: Type.Optional(ScanScope),
  },
  { additionalProperties: false },
);

const CustomEntryInput = Type.Object(
  {
    pattern: Type.String({ minLength: 1, maxLength: 100_000 }),
    action: literals(['redact', 'block'] as const),
    label: Type.Optional(Nullable(Type.String({ maxLength: 100 }))),
  },
  { additionalProperties: false },
);

/** The writable guardrail fields (all optional); `name` is added per body. */
const settings = {
  description: Type.Optional(Nullable(Type.String({ maxLength: 1000 }))),
  allowed_models: stringList(300),
  allowed_providers: stringList(100),
  ignored_models: stringList(300),
  ignored_providers: stringList(100),
  limit_usd: Type.Optional(Nullable(Type.Number({ minimum: 0 }))),
  reset_interval: Type.Optional(Nullable(ResetInterval)),
  enforce_zdr: Type.Optional(NullableFlag),
  enforce_zdr_vendor_a: Type.Optional(NullableFlag),
  enforce_zdr_vendor_b: Type.Optional(NullableFlag),
  enforce_zdr_vendor_c: Type.Optional(NullableFlag),
  enforce_zdr_vendor_d: Type.Optional(NullableFlag),
  enforce_zdr_other: Type.Optional(NullableFlag),
  content_filter_builtins: Type.Optional(Nullable(Type.Array(BuiltinEntryInput, { maxItems: 100 }))),
  content_filters: Type.Optional(Nullable(Type.Array(CustomEntryInput, { maxItems: 100 }))),
  include_byok_in_budgets: Type.Optional(Type.Boolean()),
  /** Calls per minute per assignee (fixed UTC minutes); null removes the limit. */
  requests_per_minute: Type.Optional(Nullable(Type.Integer({ minimum: 1, maximum: 1_000_000_000 }))),
  /** Prompt + completion tokens per minute per assignee; null removes the limit. */
  tokens_per_minute: Type.Optional(Nullable(Type.Integer({ minimum: 1, maximum: 1_000_000_000_000 }))),
};

const Name = Type.String({ minLength: 1, maxLength: 200 });

export const CreateGuardrailBody = Type.Object(
  { name: Name, workspace_id: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })), ...settings },
  { additionalProperties: false },
);

export const UpdateGuardrailBody = Type.Object(
  { name: Type.Optional(Name), ...settings },
  { additionalProperties: false },
);

/**
 * The body schema plus `enforce_zdr_<vendor name>` input aliases (`enforce_zdr_anthropic` …) of
 * the configured vendors, so OpenRouter clients that send those names validate too.
 */
export function withZdrAliases<T extends typeof CreateGuardrailBody | typeof UpdateGuardrailBody>(
  schema: T,
  vendorNames: readonly string[],
): T {
  const aliases: Record<string, TSchema> = {};
  for (const name of vendorNames) {
    const key = `enforce_zdr_${name.toLowerCase()}`;
    if (!(key in schema.properties)) aliases[key] = Type.Optional(NullableFlag);
  }
  return { ...schema, properties: { ...schema.properties, ...aliases } };
}

export const GuardrailListQuery = Type.Object({
  ...PageQuery.properties,
  workspace_id: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
});

/** GET/DELETE and assignment routes: every string is accepted; a malformed id is simply not found (404). */
export const GuardrailParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 100 }) });
/** PATCH lists: a malformed UUID in them is a 400. */
export const GuardrailUuidParams = Type.Object({ id: Type.String({ format: 'uuid' }) });

const bulkItems = Type.Array(Type.String({ minLength: 1, maxLength: 200 }), { minItems: 1, maxItems: 1000 });
export const KeyHashesBody = Type.Object({ key_hashes: bulkItems }, { additionalProperties: false });
export const MemberIdsBody = Type.Object({ member_user_ids: bulkItems }, { additionalProperties: false });
