import type { Selectable } from 'kysely';
import { apiSurfaceOf } from '../../domain/accounting/api-surface.js';
import type {
  GenerationAttempt,
  GenerationRecord,
  LedgerRepository,
  Refusal,
  RefusalDetail,
  SpendDelta,
} from '../../domain/accounting/types.js';
import type { GenerationsTable } from '../schema-accounting.js';
import { fromFlag, toFlag } from './convert.js';

/** How a ledger batch is written; a dialect's fast writer replaces the Kysely one (ledger.ts). */
export type BatchWriter = LedgerRepository['writeBatch'];

/** The stored form of a generation (every writer stores exactly these values). */
export function toRow(g: GenerationRecord): GenerationsTable {
  return {
    id: g.id,
    request_id: g.requestId,
    key_hash: g.keyHash,
    workspace_id: g.workspaceId,
    creator_user_id: g.creatorUserId,
    model: g.model,
    provider_id: g.providerId,
    upstream_model: g.upstreamModel,
    upstream_id: g.upstreamId,
    api_type: g.apiType,
    streamed: toFlag(g.streamed),
    cancelled: toFlag(g.cancelled),
    finish_reason: g.finishReason,
    native_finish_reason: g.nativeFinishReason,
    prompt_tokens: Math.round(g.promptTokens),
    completion_tokens: Math.round(g.completionTokens),
    reasoning_tokens: Math.round(g.reasoningTokens),
    cached_tokens: Math.round(g.cachedTokens),
    usage_estimated: toFlag(g.usageEstimated),
    prompt_cost_usd: g.promptCostUsd,
    completion_cost_usd: g.completionCostUsd,
    cost_usd: g.costUsd,
    latency_ms: g.latencyMs,
    generation_time_ms: g.generationTimeMs,
    preset_id: g.presetId,
    preset_version: g.presetVersion === null ? null : Math.round(g.presetVersion),
    flags: JSON.stringify(g.flags),
    attempts: JSON.stringify(g.attempts),
    created_at: g.createdAt,
    user_agent: g.userAgent ?? null,
    session_id: g.sessionId ?? null,
    origin: g.origin ?? null,
    ...refusalColumns(g.refusal),
  };
}

type RefusalColumns = Pick<GenerationsTable, 'refusal_status' | 'refusal_code' | 'refusal_reason' | 'refusal_count'>;

const NOT_REFUSED: RefusalColumns = {
  refusal_status: null,
  refusal_code: null,
  refusal_reason: null,
  refusal_count: null,
};

/** A refusal's columns; a malformed one (a journal line not ours) is stored as a plain error. */
function refusalColumns(refusal: Refusal | null | undefined): RefusalColumns {
  if (refusal === null || refusal === undefined || !Number.isInteger(refusal.status)) return NOT_REFUSED;
  return {
    refusal_status: refusal.status,
    refusal_code: String(refusal.code),
    refusal_reason: JSON.stringify({ message: refusal.message, details: refusal.details }),
    refusal_count: Number.isInteger(refusal.count) && refusal.count > 0 ? refusal.count : 1,
  };
}

function refusalField(row: Selectable<GenerationsTable>): { refusal?: Refusal } {
  if (row.refusal_status === null) return {};
  let reason: { message?: unknown; details?: unknown } = {};
  try {
    const parsed: unknown = JSON.parse(row.refusal_reason ?? '{}');
    if (typeof parsed === 'object' && parsed !== null) reason = parsed;
  } catch {
    // An unreadable reason still leaves the status and code.
  }
  const refusal: Refusal = {
    status: Number(row.refusal_status),
    code: row.refusal_code ?? '',
    message: typeof reason.message === 'string' ? reason.message : '',
    details:
      typeof reason.details === 'object' && reason.details !== null
        ? (reason.details as Record<string, RefusalDetail>)
        : {},
    count: Number(row.refusal_count ?? 1),
  };
  return { refusal };
}

/** The columns of `generations` in the order of `toRow` (fixed-text statements list them so). */
export const GENERATION_COLUMNS = [
  'id',
  'request_id',
  'key_hash',
  'workspace_id',
  'creator_user_id',
  'model',
  'provider_id',
  'upstream_model',
  'upstream_id',
  'api_type',
  'streamed',
  'cancelled',
  'finish_reason',
  'native_finish_reason',
  'prompt_tokens',
  'completion_tokens',
  'reasoning_tokens',
  'cached_tokens',
  'usage_estimated',
  'prompt_cost_usd',
  'completion_cost_usd',
  'cost_usd',
  'latency_ms',
  'generation_time_ms',
  'preset_id',
  'preset_version',
  'flags',
  'attempts',
  'created_at',
  'user_agent',
  'session_id',
  'origin',
  'refusal_status',
  'refusal_code',
  'refusal_reason',
  'refusal_count',
] as const satisfies readonly (keyof GenerationsTable)[];

/** A stored value of a `generations` column. */
export type GenerationCell = GenerationsTable[keyof GenerationsTable];

/** `toRow(g)`'s values in GENERATION_COLUMNS order, for statements that bind by position. */
export function rowValues(g: GenerationRecord): GenerationCell[] {
  const row = toRow(g);
  return GENERATION_COLUMNS.map((column) => row[column]);
}

function parseList<T>(text: string, keep: (item: unknown) => item is T): T[] {
  try {
    const value: unknown = JSON.parse(text);
    return Array.isArray(value) ? value.filter(keep) : [];
  } catch {
    return [];
  }
}

const isString = (v: unknown): v is string => typeof v === 'string';
function isAttempt(v: unknown): v is GenerationAttempt {
  if (typeof v !== 'object' || v === null) return false;
  const a = v as Record<string, unknown>;
  return (
    typeof a.provider === 'string' && typeof a.model === 'string' && (a.status === null || typeof a.status === 'number')
  );
}

export function toRecord(row: Selectable<GenerationsTable>): GenerationRecord {
  return {
    id: row.id,
    requestId: row.request_id,
    keyHash: row.key_hash,
    workspaceId: row.workspace_id,
    creatorUserId: row.creator_user_id,
    model: row.model,
    providerId: row.provider_id,
    upstreamModel: row.upstream_model,
    upstreamId: row.upstream_id,
    apiType: apiSurfaceOf(row.api_type),
    streamed: fromFlag(row.streamed),
    cancelled: fromFlag(row.cancelled),
    finishReason: row.finish_reason,
    nativeFinishReason: row.native_finish_reason,
    promptTokens: Number(row.prompt_tokens),
    completionTokens: Number(row.completion_tokens),
    reasoningTokens: Number(row.reasoning_tokens),
    cachedTokens: Number(row.cached_tokens),
    usageEstimated: fromFlag(row.usage_estimated),
    promptCostUsd: Number(row.prompt_cost_usd),
    completionCostUsd: Number(row.completion_cost_usd),
    costUsd: Number(row.cost_usd),
    latencyMs: Number(row.latency_ms),
    generationTimeMs: Number(row.generation_time_ms),
    presetId: row.preset_id,
    presetVersion: row.preset_version === null ? null : Number(row.preset_version),
    flags: parseList(row.flags, isString),
    attempts: parseList(row.attempts, isAttempt),
    createdAt: row.created_at,
    userAgent: row.user_agent,
    sessionId: row.session_id,
    origin: row.origin,
    // Absent for an accepted call, as the gateway builds it: a record reads back as it was settled.
    ...refusalField(row),
  };
}

export interface CounterSum {
  account: string;
  window: string;
  amount_usd: number;
  byok_usd: number;
}

/**
 * Sums the deltas of the newly inserted generations per (account, window), in delta order: one
 * INSERT … ON CONFLICT may touch a row only once, and a batch touches each counter row once
 * however many calls it settles (no per-call hot-row write). Spend of a generation already
 * stored (a retried batch whose commit was ambiguous) is not added twice.
 */
export function freshSums(deltas: readonly SpendDelta[], inserted: ReadonlySet<string>): CounterSum[] {
  const byAccount = new Map<string, Map<string, CounterSum>>();
  const out: CounterSum[] = [];
  for (const d of deltas) {
    if (!inserted.has(d.generationId)) continue;
    let byWindow = byAccount.get(d.account);
    if (byWindow === undefined) {
      byWindow = new Map();
      byAccount.set(d.account, byWindow);
    }
    const sum = byWindow.get(d.window);
    if (sum === undefined) {
      const fresh = { account: d.account, window: d.window, amount_usd: d.amountUsd, byok_usd: d.byokUsd };
      byWindow.set(d.window, fresh);
      out.push(fresh);
    } else {
      sum.amount_usd += d.amountUsd;
      sum.byok_usd += d.byokUsd;
    }
  }
  return out;
}
