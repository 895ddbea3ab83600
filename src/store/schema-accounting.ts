/**
 * Table types of metering (merged into `Database` by the store). Same conventions as schema.ts:
 * booleans are integers (0/1), timestamps ISO-8601 text, money doubles, JSON as text.
 */
export interface GenerationsTable {
  id: string;
  request_id: string;
  key_hash: string;
  workspace_id: string;
  creator_user_id: string;
  model: string;
  provider_id: string;
  upstream_model: string;
  upstream_id: string | null;
  api_type: string;
  streamed: number;
  cancelled: number;
  finish_reason: string | null;
  native_finish_reason: string | null;
  prompt_tokens: number;
  completion_tokens: number;
  reasoning_tokens: number;
  cached_tokens: number;
  usage_estimated: number;
  prompt_cost_usd: number;
  completion_cost_usd: number;
  cost_usd: number;
  latency_ms: number;
  generation_time_ms: number;
  preset_id: string | null;
  preset_version: number | null;
  /** JSON array of strings. */
  flags: string;
  /** JSON array of `{provider, model, status}`. */
  attempts: string;
  created_at: string;
  /** Migration 014: who called. */
  user_agent: string | null;
  session_id: string | null;
  origin: string | null;
  /** A refused call (migration 013): the HTTP status it got; null for a call that was accepted. */
  refusal_status: number | null;
  /** The error code of the refusal (`payment_required`, `permission_denied`, …). */
  refusal_code: string | null;
  /** JSON object: the refusal's message and which rule, guardrail or budget refused it (never the prompt). */
  refusal_reason: string | null;
  /** How many refusals the row stands for (more than 1: the sum beyond the recorded rate). */
  refusal_count: number | null;
}

/**
 * Spend counters per account and window ('lifetime', 'day:YYYY-MM-DD', 'week:<Monday>',
 * 'month:YYYY-MM'). An account is a key hash, or `member:<user_id>` for a member's keys together.
 */
export interface SpendCountersTable {
  account: string;
  window: string;
  amount_usd: number;
  byok_usd: number;
}

/** One replica's (`holder`) share of a budget in one account's window (migration 006). */
export interface BudgetLeasesTable {
  account: string;
  window: string;
  holder: string;
  amount_usd: number;
  /** ISO-8601; a lease past it counts for nobody and may be deleted. */
  expires_at: string;
}

/** One replica's request and token counts of one account's minute (rate limits). */
export interface RateCountsTable {
  account: string;
  /** `minute:<epoch minute>`. */
  window: string;
  holder: string;
  /** bigint: PostgreSQL returns it as a string. */
  requests: number | string;
  tokens: number | string;
  expires_at: string;
}

/** Which replica runs a background job (the retention pruner) until `expires_at` (migration 013). */
export interface MaintenanceLeasesTable {
  job: string;
  holder: string;
  expires_at: string;
}

export interface AccountingTables {
  generations: GenerationsTable;
  spend_counters: SpendCountersTable;
  budget_leases: BudgetLeasesTable;
  rate_counts: RateCountsTable;
  maintenance_leases: MaintenanceLeasesTable;
}

/** What the ledger repository needs; `Database` (with these tables merged) satisfies it. */
export type AccountingDatabase = AccountingTables;
