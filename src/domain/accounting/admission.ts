import { errors, type GatewayError } from '../../errors/index.js';
import type { BudgetSlot, LeaseBook } from './lease-book.js';

/** Money comparisons tolerate float noise far below a cent. */
const EPSILON = 1e-9;
/** A lease must exceed what is used by at least this much to admit even a zero estimate. */
const MIN_NEED = 1e-8;
/** Bounds the grant-and-recheck loop of one reserve under heavy contention. */
const MAX_ROUNDS = 50;

/** The store could not grant a lease (unreachable): the call gets 503, not a budget refusal. */
export class GrantFailed extends Error {
  toGatewayError(): GatewayError {
    return errors.storeUnavailable('Spending limits cannot be checked right now; retry shortly');
  }
}

function fits(leases: LeaseBook, slot: BudgetSlot, amountUsd: number): boolean {
  const free = leases.usable(slot.account, slot.window, slot.budget.limitUsd) - leases.used(slot.account, slot.window);
  return free > EPSILON && amountUsd <= free + EPSILON;
}

/** A lease running low is extended in the background, so the calls after this one need not wait. */
function refillAhead(leases: LeaseBook, slot: BudgetSlot, amountUsd: number): void {
  leases.touch(slot.account, slot.window);
  const chunk = Math.max(amountUsd, MIN_NEED) * leases.leaseCalls(slot.account, slot.window);
  const free = leases.usable(slot.account, slot.window, slot.budget.limitUsd) - leases.used(slot.account, slot.window);
  if (
    free >= chunk / 4 ||
    leases.pending(slot.account, slot.window) !== undefined ||
    leases.capped(slot.account, slot.window)
  )
    return;
  leases.extend(slot, slot.budget.limitUsd, 0, chunk).catch(() => undefined);
}

/**
 * The first round of `admit`, without waiting: when every slot's lease covers the call, holds it
 * (`onAdmit`), tops up leases running low in the background and returns true; else changes
 * nothing and returns false (then `admit` does the rest).
 */
export function admitFromLeases(
  leases: LeaseBook,
  slots: readonly BudgetSlot[],
  amountUsd: number,
  onAdmit: () => void,
): boolean {
  for (const slot of slots) if (!fits(leases, slot, amountUsd)) return false;
  onAdmit();
  for (const slot of slots) refillAhead(leases, slot, amountUsd);
  return true;
}

/**
 * Admits a call of `amountUsd` into every slot from this replica's leases: no database round trip
 * while they cover it. When one falls short, the store is asked to extend it, and everything is
 * checked again. The final check and `onAdmit` (the hold) are one synchronous step, so concurrent
 * calls of one account always see each other's holds. Throws the short budget's own error when the
 * store refuses, GrantFailed when it cannot be reached.
 */
export async function admit(
  leases: LeaseBook,
  slots: readonly BudgetSlot[],
  amountUsd: number,
  onAdmit: () => void,
): Promise<void> {
  for (let round = 0; round < MAX_ROUNDS; round++) {
    if (admitFromLeases(leases, slots, amountUsd, onAdmit)) return;
    const short = slots.find((slot) => !fits(leases, slot, amountUsd));
    if (short === undefined) continue;
    const running = leases.pending(short.account, short.window);
    if (running !== undefined) {
      // Someone else's grant for this slot: wait for it, then check again.
      await running.catch(() => undefined);
      continue;
    }
    const extra = Math.max(amountUsd, MIN_NEED);
    const exhausted = (roomUsd: number) =>
      short.budget.exhausted({
        remainingUsd: Math.max(0, roomUsd - leases.used(short.account, short.window)),
        estimateUsd: amountUsd,
      });
    const refusedRoom = leases.recentRefusal(short.account, short.window, extra);
    if (refusedRoom !== null) throw exhausted(refusedRoom);
    let grant;
    try {
      // A lease is taken for many calls like this one (64, more for a busy slot), so most calls ask nobody.
      grant = await leases.extend(
        short,
        short.budget.limitUsd,
        extra,
        extra * leases.leaseCalls(short.account, short.window),
      );
    } catch (error) {
      throw new GrantFailed('lease grant failed', { cause: error });
    }
    if (grant.leaseUsd === null) throw exhausted(grant.roomUsd);
  }
  throw errors.serviceUnavailable('Spending limits are contended; retry shortly', { retryable: true });
}
