// Wire shapes of the management API that the console reads (see docs/api.md, docs/guardrails.md,
// docs/presets.md). Only the fields the console uses are typed.

export type LimitReset = 'daily' | 'weekly' | 'monthly';

export interface Key {
  hash: string;
  name: string;
  label: string;
  disabled: boolean;
  limit: number | null;
  limit_remaining: number | null;
  limit_reset: LimitReset | null;
  usage: number;
  usage_daily: number;
  usage_weekly: number;
  usage_monthly: number;
  created_at: string;
  updated_at: string | null;
  expires_at: string | null;
  workspace_id: string;
  creator_user_id: string | null;
}

export interface Created<T> {
  data: T;
  key: string;
}

export interface Page<T> {
  data: T[];
  total_count?: number;
}

export interface Workspace {
  id: string;
  name: string;
  slug: string;
  description: string | null;
  default_guardrail_id: string;
  default_text_model: string | null;
  created_at: string;
  updated_at: string | null;
}

export interface Member {
  id: string;
  email: string;
  first_name: string | null;
  last_name: string | null;
  role: string;
  /** Disabled members cannot sign in to the console. */
  disabled?: boolean;
}

export interface WorkspaceMember {
  id: string;
  user_id: string;
  workspace_id: string;
  role: string;
  created_at: string;
}

export type FilterAction = 'redact' | 'block' | 'flag';

export interface BuiltinFilter {
  slug: string;
  action: FilterAction;
  label?: string | null;
  scan_scope?: 'user_only' | 'all_messages';
}

export interface CustomFilter {
  pattern: string;
  action: 'redact' | 'block';
  label: string | null;
}

export const ZDR_FLAGS = [
  'enforce_zdr_vendor_a',
  'enforce_zdr_vendor_b',
  'enforce_zdr_vendor_c',
  'enforce_zdr_vendor_d',
  'enforce_zdr_other',
] as const;
export type ZdrFlag = (typeof ZDR_FLAGS)[number];

export interface Guardrail extends Record<ZdrFlag, boolean | null> {
  id: string;
  name: string;
  description: string | null;
  workspace_id: string;
  allowed_models: string[] | null;
  allowed_providers: string[] | null;
  ignored_models: string[] | null;
  ignored_providers: string[] | null;
  limit_usd: number | null;
  reset_interval: LimitReset | null;
  enforce_zdr: boolean | null;
  content_filter_builtins: BuiltinFilter[] | null;
  content_filters: CustomFilter[] | null;
  include_byok_in_budgets: boolean;
  created_at: string;
  updated_at: string | null;
}

export interface KeyAssignment {
  id: string;
  guardrail_id: string;
  key_hash: string;
  key_label: string;
  key_name: string;
  created_at: string;
}

export interface MemberAssignment {
  id: string;
  guardrail_id: string;
  user_id: string;
  created_at: string;
}

export interface Preset {
  id: string;
  name: string;
  slug: string;
  description: string | null;
  status: 'active' | 'archived';
  workspace_id: string;
  designated_version_id: string | null;
  created_at: string;
  updated_at: string;
}

export interface PresetVersion {
  id: string;
  preset_id: string;
  version: number;
  config: Record<string, unknown>;
  system_prompt: string;
  creator_id: string | null;
  created_at: string;
}

export interface PresetWithVersion extends Preset {
  designated_version: PresetVersion | null;
}

export interface Generation {
  id: string;
  created_at: string;
  model: string;
  provider_name: string | null;
  api_type: string | null;
  api_surface: string;
  workspace_id: string | null;
  preset_id: string | null;
  request_id: string | null;
  streamed: boolean | null;
  cancelled: boolean | null;
  finish_reason: string | null;
  total_cost: number;
  tokens_prompt: number | null;
  tokens_completion: number | null;
  native_tokens_reasoning: number | null;
  native_tokens_cached: number | null;
  latency: number | null;
  generation_time: number | null;
  upstream_id: string | null;
  user_agent: string | null;
  session_id: string | null;
  origin: string;
  provider_responses: { status: number | null; provider_name?: string; model_permaslug?: string }[] | null;
  content_filter_flags: string[];
  refusal?: Refusal | null;
}

/** Why a model call was refused before (or instead of) an upstream call. */
export interface Refusal {
  status: number;
  code: string;
  message: string;
  details: Record<string, unknown>;
  /** How many refusals the record stands for (more than 1: a key's refusals beyond the recorded rate, summed). */
  count: number;
}

export interface WirePricing {
  prompt: string;
  completion: string;
  request?: string;
  image?: string;
  input_cache_read?: string;
  input_cache_write?: string;
}

export interface Model {
  id: string;
  canonical_slug: string;
  name: string;
  context_length: number | null;
  pricing: WirePricing;
  architecture: { input_modalities: string[]; output_modalities: string[] };
}

export interface Provider {
  name: string;
  slug: string;
  headquarters: string | null;
  datacenters: string[] | null;
}

export interface AuditRecord {
  id: string;
  created_at: string;
  action: string;
  target: { type: string; id: string };
  actor: { type: string; member_id: string | null; email: string | null; key_hash: string | null };
  changes: Record<string, unknown> | null;
}
