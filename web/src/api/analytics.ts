// The console-only analytics endpoints (see docs/console.md).
import { get } from './client.js';
import type { Refusal } from './types.js';

export type UsageRange = '24h' | '30d';
export type GroupBy = 'none' | 'model' | 'provider' | 'key' | 'workspace';

export interface UsageSeries {
  group: string;
  label: string;
  spend_usd: number[];
  requests: number[];
  errors: number[];
}

export interface Usage {
  range: UsageRange;
  bucket: 'hour' | 'day';
  group_by: GroupBy;
  buckets: string[];
  series: UsageSeries[];
  totals: { spend_usd: number; requests: number; errors: number; refused?: number; error_rate: number };
}

export interface KeyNearLimit {
  hash: string;
  name: string;
  label: string;
  workspace_id: string;
  limit_usd: number;
  limit_reset: string | null;
  usage_usd: number;
  remaining_usd: number;
  fraction_used: number;
  disabled: boolean;
}

export interface BudgetNearLimit {
  guardrail_id: string;
  guardrail_name: string;
  limit_usd: number;
  reset_interval: string | null;
  assignee_type: 'key' | 'member';
  assignee_id: string;
  assignee_label: string;
  usage_usd: number;
  remaining_usd: number;
  fraction_used: number;
}

export interface Limits {
  keys: KeyNearLimit[];
  guardrails: BudgetNearLimit[];
}

export interface EndpointHealth {
  endpoint_id: string;
  provider: string;
  model: string;
  upstream_model: string;
  circuit: 'closed' | 'open' | 'half_open';
  recent_failures: number;
  latency_ms: number | null;
  throughput_tps: number | null;
  requests_1h: number;
  errors_1h: number;
  error_rate_1h: number | null;
}

export type ApiSurface = 'chat' | 'completions' | 'messages' | 'responses' | 'embeddings';

export interface GenerationRow {
  id: string;
  created_at: string;
  key_hash: string | null;
  key_name: string | null;
  workspace_id: string | null;
  model: string;
  provider_name: string | null;
  endpoint_id: string | null;
  status: 'success' | 'error' | 'cancelled' | 'refused';
  /** OpenRouter's enum, and the surface the client called (chat, completions, messages, responses, embeddings). */
  api_type: 'completions' | 'embeddings';
  api_surface: ApiSurface;
  finish_reason: string | null;
  streamed: boolean | null;
  prompt_tokens: number | null;
  completion_tokens: number | null;
  reasoning_tokens: number | null;
  cost_usd: number;
  latency_ms: number | null;
  first_token_ms: number | null;
  fallbacks: number;
  attempts: { provider: string; model: string; status: number | null }[];
  flags: string[];
  refusal?: Refusal | null;
}

export interface GenerationPage {
  data: GenerationRow[];
  next_cursor: string | null;
}

export const usage = (range: UsageRange, groupBy: GroupBy, signal?: AbortSignal) =>
  get<{ data: Usage }>('/analytics/usage', { query: { range, group_by: groupBy, top: 8 }, signal }).then((r) => r.data);

export const limits = (signal?: AbortSignal) =>
  get<{ data: Limits }>('/analytics/limits', { query: { top: 10 }, signal }).then((r) => r.data);

export const endpointHealth = (signal?: AbortSignal) =>
  get<{ data: EndpointHealth[] }>('/analytics/endpoints', { signal }).then((r) => r.data);
