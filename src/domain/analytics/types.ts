import type { GenerationRecord } from '../accounting/types.js';
import type { ApiType } from '../../wire/index.js';
import type { LimitReset } from '../keys/types.js';

/**
 * How a generation ended: `refused` (refused before or instead of an upstream call), `error`
 * (finish_reason 'error'), `cancelled` (client went away), else `success`.
 */
export type GenerationStatus = 'success' | 'error' | 'cancelled' | 'refused';

export const statusOf = (g: Pick<GenerationRecord, 'finishReason' | 'cancelled' | 'refusal'>): GenerationStatus =>
  g.refusal !== null && g.refusal !== undefined
    ? 'refused'
    : g.finishReason === 'error'
      ? 'error'
      : g.cancelled
        ? 'cancelled'
        : 'success';

/** Position in the generation log, ordered by (created_at, id) descending. */
export interface GenerationCursor {
  createdAt: string;
  id: string;
}

export interface GenerationFilter {
  /** ISO-8601, inclusive. */
  from?: string;
  /** ISO-8601, exclusive. */
  to?: string;
  keyHash?: string;
  model?: string;
  providerId?: string;
  /** `error` matches every call that did not succeed: failed upstream and refused (as the error counts). */
  status?: GenerationStatus;
  /** Refusals with this HTTP status only. */
  refusalStatus?: number;
  flagged?: boolean;
  workspaceId?: string;
  sessionId?: string;
  /** A prefix of the User-Agent. */
  userAgent?: string;
  origin?: string;
  /** The surface the calls came in on (stored in `api_type`). */
  apiSurface?: ApiType;
}

/** One UTC day × model × provider endpoint. */
export interface ActivityRow {
  date: string;
  model: string;
  providerId: string;
  upstreamModel: string;
  usageUsd: number;
  requests: number;
  promptTokens: number;
  completionTokens: number;
  reasoningTokens: number;
}

export interface ActivityQuery {
  /** `YYYY-MM-DD`, inclusive. */
  fromDay: string;
  /** `YYYY-MM-DD`, exclusive. */
  toDay: string;
  keyHash?: string;
  workspaceId?: string;
}

export type UsageGroupBy = 'none' | 'model' | 'provider' | 'key' | 'workspace';

export interface UsageQuery {
  bucket: 'hour' | 'day';
  /** First bucket, inclusive: `YYYY-MM-DDTHH` (hours) or `YYYY-MM-DD` (days). */
  from: string;
  /** Bucket after the last, exclusive, in the same form. */
  to: string;
  groupBy: UsageGroupBy;
}

/** Sums of one bucket (`YYYY-MM-DDTHH` or `YYYY-MM-DD`) and group. */
export interface UsagePoint {
  bucket: string;
  group: string;
  spendUsd: number;
  requests: number;
  errors: number;
  /** How many of `errors` were refused calls. */
  refused: number;
}

export interface EndpointStats {
  model: string;
  providerId: string;
  upstreamModel: string;
  requests: number;
  errors: number;
}

export interface LimitedKey {
  hash: string;
  name: string;
  label: string;
  workspaceId: string;
  limitUsd: number;
  limitReset: LimitReset | null;
  includeByok: boolean;
  disabled: boolean;
}

/** A guardrail budget and one account it is checked against. */
export interface BudgetAssignee {
  guardrailId: string;
  guardrailName: string;
  limitUsd: number;
  resetInterval: LimitReset | null;
  assigneeType: 'key' | 'member';
  /** Key hash or member user id. */
  assigneeId: string;
  /** Key name or member email. */
  assigneeLabel: string;
}

/**
 * Reads of the ledger, its rollups and the key tables for the console and `/activity`: reads over
 * days (a month) go to the daily rollups, reads over hours to the hourly ones.
 */
export interface AnalyticsRepository {
  activity(query: ActivityQuery): Promise<ActivityRow[]>;
  /** Up to `limit` generations after `after` (newest first). */
  listGenerations(filter: GenerationFilter, after: GenerationCursor | null, limit: number): Promise<GenerationRecord[]>;
  usage(query: UsageQuery): Promise<UsagePoint[]>;
  /** Calls and errors per endpoint from `fromHour` (`YYYY-MM-DDTHH`) on. */
  endpointStats(fromHour: string): Promise<EndpointStats[]>;
  keyNames(hashes: readonly string[]): Promise<Map<string, string>>;
  workspaceNames(ids: readonly string[]): Promise<Map<string, string>>;
  limitedKeys(): Promise<LimitedKey[]>;
  /** Guardrails that have a `limit_usd`: id and workspace. */
  limitedGuardrails(): Promise<{ id: string; workspaceId: string }[]>;
  /**
   * Guardrail budgets per account: explicit key and member assignments, and for a workspace's
   * default guardrail every API key of that workspace (`defaultGuardrailIds` maps guardrail id →
   * workspace id). At most `max` rows.
   */
  budgetAssignees(defaultGuardrailIds: ReadonlyMap<string, string>, max: number): Promise<BudgetAssignee[]>;
}
