import { errors } from '../../errors/index.js';
import type { KeyRecord } from '../keys/types.js';
import type { Budget, GenerationRecord, SpendDelta } from './types.js';
import { windowListAt } from './windows.js';

/**
 * Spend accounts: every settled call adds its cost to its key's account (the key hash) and to
 * the account of the member who created the key, in every window. Budgets are checked against
 * an account: a key's own limit and a key-assigned guardrail against the key's, a
 * member-assigned guardrail against the member's ("key usage also accrues to
 * the owning member").
 */
export function memberAccount(userId: string): string {
  let account = memberAccounts.get(userId);
  if (account === undefined) {
    if (memberAccounts.size >= MEMBER_ACCOUNTS_KEPT) memberAccounts.clear();
    account = `member:${userId}`;
    memberAccounts.set(userId, account);
  }
  return account;
}

/**
 * The account strings handed out, by user id: every call settles into its member's account, and
 * one string per member (its hash computed once) is cheaper to look up than a new one per call.
 */
const memberAccounts = new Map<string, string>();
const MEMBER_ACCOUNTS_KEPT = 10_000;

/** The key's own `limit`, in its `limit_reset` window: 402 when it cannot cover a call. */
export function keyBudget(key: KeyRecord, limit: number): Budget {
  return {
    account: key.hash,
    limitUsd: limit,
    reset: key.limitReset,
    exhausted: ({ remainingUsd, estimateUsd }) =>
      errors.paymentRequired('Key spending limit reached: this request may cost more than the key has left', {
        limit,
        limit_remaining: remainingUsd,
        limit_reset: key.limitReset,
        estimated_cost: estimateUsd,
      }),
  };
}

/**
 * The spend a settled generation adds: its cost in every window of the moment it settled, to its
 * key's and its member's account, one `add` each. The meter and the journal's replay build them
 * the same way.
 */
export function forEachSettledDelta(
  record: GenerationRecord,
  settledAt: Date,
  add: (account: string, window: string, amountUsd: number) => void,
): void {
  if (!(record.costUsd > 0)) return;
  const windows = windowListAt(settledAt);
  const member = memberAccount(record.creatorUserId);
  for (const window of windows) add(record.keyHash, window, record.costUsd);
  for (const window of windows) add(member, window, record.costUsd);
}

/** The same spend as rows for the ledger (`forEachSettledDelta`). */
export function settledDeltas(record: GenerationRecord, settledAt: Date): SpendDelta[] {
  const deltas: SpendDelta[] = [];
  forEachSettledDelta(record, settledAt, (account, window, amountUsd) =>
    deltas.push({ generationId: record.id, account, window, amountUsd, byokUsd: 0 }),
  );
  return deltas;
}
