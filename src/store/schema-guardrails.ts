/**
 * Table types of guardrails and their assignments (merged into `Database`). Same conventions as
 * schema.ts: booleans are integers (0/1; nullable booleans are integer or NULL), timestamps
 * ISO-8601 text, money doubles, JSON as text.
 */
export interface GuardrailsTable {
  id: string;
  workspace_id: string;
  name: string;
  description: string | null;
  /** JSON array of canonical model slugs. */
  allowed_models: string | null;
  allowed_providers: string | null;
  ignored_models: string | null;
  ignored_providers: string | null;
  limit_usd: number | null;
  requests_per_minute: number | null;
  /** bigint: PostgreSQL returns it as a string. */
  tokens_per_minute: number | string | null;
  reset_interval: 'daily' | 'weekly' | 'monthly' | null;
  enforce_zdr: number | null;
  enforce_zdr_vendor_a: number | null;
  enforce_zdr_vendor_b: number | null;
  enforce_zdr_vendor_c: number | null;
  enforce_zdr_vendor_d: number | null;
  enforce_zdr_other: number | null;
  /** JSON array of `{slug, action, scan_scope?}`. */
  content_filter_builtins: string | null;
  /** JSON array of `{pattern, action, label}`. */
  content_filters: string | null;
  include_byok_in_budgets: number;
  created_at: string;
  updated_at: string | null;
}

export interface GuardrailKeyAssignmentsTable {
  id: string;
  guardrail_id: string;
  key_hash: string;
  assigned_by: string | null;
  created_at: string;
}

export interface GuardrailMemberAssignmentsTable {
  id: string;
  guardrail_id: string;
  user_id: string;
  assigned_by: string | null;
  created_at: string;
}

export interface GuardrailTables {
  guardrails: GuardrailsTable;
  guardrail_key_assignments: GuardrailKeyAssignmentsTable;
  guardrail_member_assignments: GuardrailMemberAssignmentsTable;
}
