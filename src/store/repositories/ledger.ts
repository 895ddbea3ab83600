import { sql, type Kysely, type Selectable } from 'kysely';
import type { GenerationAttempt, GenerationRecord, LedgerRepository, SpendDelta, WindowSpend } from '../../domain/accounting/types.js';
import type { AccountingDatabase, GenerationsTable } from '../schema-accounting.js';
import { budgetLeaseMethods } from './budget-leases.js';
import { fromFlag, toFlag } from './convert.js';

/** Rows per INSERT statement (well under SQLite's and PostgreSQL's bound-parameter limits). */
const ROWS_PER_INSERT = 200;

function toRow(g: GenerationRecord): GenerationsTable {
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
  };
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
  return typeof a.provider === 'string' && typeof a.model === 'string' && (a.status === null || typeof a.status === 'number');
}

function toRecord(row: Selectable<GenerationsTable>): GenerationRecord {
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
    apiType: 'completions',
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
  };
}

/**
 * Sums deltas per (account, window): one INSERT … ON CONFLICT may touch a row only once, and a
 * batch touches each counter row once however many calls it settles (no per-call hot-row write).
 */
function aggregate(deltas: readonly SpendDelta[]): { account: string; window: string; amount_usd: number; byok_usd: number }[] {
  const sums = new Map<string, { account: string; window: string; amount_usd: number; byok_usd: number }>();
  for (const d of deltas) {
    const slot = `${d.account}\n${d.window}`;
    const sum = sums.get(slot);
    if (sum === undefined) sums.set(slot, { account: d.account, window: d.window, amount_usd: d.amountUsd, byok_usd: d.byokUsd });
    else {
      sum.amount_usd += d.amountUsd;
      sum.byok_usd += d.byokUsd;
    }
  }
  return [...sums.values()];
}

const chunks = <T>(items: readonly T[], size: number): T[][] => {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
};

/**
 * Over any database that has the accounting tables (the store's `Database` once they are merged
 * in), or a transaction of one.
 */
export function createLedgerRepository<DB extends AccountingDatabase>(database: Kysely<DB>): LedgerRepository {
  // Kysely's type is invariant in DB; the constraint guarantees these tables exist as typed.
  const db = database as unknown as Kysely<AccountingDatabase>;
  return {
    ...budgetLeaseMethods(db),
    async writeBatch(generations, spendDeltas) {
      if (generations.length === 0 && spendDeltas.length === 0) return;
      await db.transaction().execute(async (trx) => {
        const inserted = new Set<string>();
        for (const part of chunks(generations, ROWS_PER_INSERT)) {
          const rows = await trx
            .insertInto('generations')
            .values(part.map(toRow))
            .onConflict((oc) => oc.column('id').doNothing())
            .returning('id')
            .execute();
          for (const r of rows) inserted.add(r.id);
        }
        // Spend of a generation already stored (a retried batch whose commit was ambiguous) is not added twice.
        const fresh = aggregate(spendDeltas.filter((d) => inserted.has(d.generationId)));
        for (const part of chunks(fresh, ROWS_PER_INSERT)) {
          await trx
            .insertInto('spend_counters')
            .values(part)
            .onConflict((oc) =>
              oc.columns(['account', 'window']).doUpdateSet({
                amount_usd: sql<number>`spend_counters.amount_usd + excluded.amount_usd`,
                byok_usd: sql<number>`spend_counters.byok_usd + excluded.byok_usd`,
              }),
            )
            .execute();
        }
      });
    },

    async spendFor(account, windows) {
      const result = new Map<string, WindowSpend>();
      if (windows.length === 0) return result;
      const rows = await db
        .selectFrom('spend_counters')
        .select(['window', 'amount_usd', 'byok_usd'])
        .where('account', '=', account)
        .where('window', 'in', [...windows])
        .execute();
      for (const r of rows) result.set(r.window, { amountUsd: Number(r.amount_usd), byokUsd: Number(r.byok_usd) });
      return result;
    },

    async usageFor(accounts, windows) {
      const result = new Map<string, Map<string, WindowSpend>>();
      if (accounts.length === 0 || windows.length === 0) return result;
      for (const part of chunks(accounts, 500)) {
        const rows = await db
          .selectFrom('spend_counters')
          .select(['account', 'window', 'amount_usd', 'byok_usd'])
          .where('account', 'in', part)
          .where('window', 'in', [...windows])
          .execute();
        for (const r of rows) {
          let perWindow = result.get(r.account);
          if (perWindow === undefined) {
            perWindow = new Map();
            result.set(r.account, perWindow);
          }
          perWindow.set(r.window, { amountUsd: Number(r.amount_usd), byokUsd: Number(r.byok_usd) });
        }
      }
      return result;
    },

    async findGeneration(id) {
      const row = await db.selectFrom('generations').selectAll().where('id', '=', id).executeTakeFirst();
      return row === undefined ? null : toRecord(row);
    },
  };
}
