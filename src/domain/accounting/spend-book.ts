import { SlotMap } from './slot-map.js';

/**
 * In-memory money bookkeeping of the meter, all synchronous (so a check-and-reserve never
 * interleaves with another): in-flight reservations per account and settled-but-unwritten spend
 * per account and window. Stored spend is not cached: budgets are checked against leases
 * (lease-book.ts), granted by the store.
 */
interface Tally {
  amount: number;
  count: number;
}

function add(map: Map<string, Tally>, key: string, amount: number): void {
  const t = map.get(key);
  if (t === undefined) map.set(key, { amount, count: 1 });
  else {
    t.amount += amount;
    t.count += 1;
  }
}

/** Counts entries so a tally that reaches zero entries is deleted (no float residue). */
function remove(map: Map<string, Tally>, key: string, amount: number): void {
  const t = map.get(key);
  if (t === undefined) return;
  t.amount -= amount;
  t.count -= 1;
  if (t.count <= 0) map.delete(key);
}

export class SpendBook {
  private readonly reserved = new Map<string, Tally>();
  private readonly pending = new SlotMap<Tally>();

  reservedFor(keyHash: string): number {
    return this.reserved.get(keyHash)?.amount ?? 0;
  }

  hold(keyHash: string, amount: number): void {
    add(this.reserved, keyHash, amount);
  }

  unhold(keyHash: string, amount: number): void {
    remove(this.reserved, keyHash, amount);
  }

  pendingFor(keyHash: string, window: string): number {
    return this.pending.get(keyHash, window)?.amount ?? 0;
  }

  addPending(keyHash: string, window: string, amount: number): void {
    const t = this.pending.get(keyHash, window);
    if (t === undefined) this.pending.set(keyHash, window, { amount, count: 1 });
    else {
      t.amount += amount;
      t.count += 1;
    }
  }

  /** A queued delta reached the database: it is no longer pending (deleted at zero entries, like a hold). */
  commitPending(keyHash: string, window: string, amount: number): void {
    const t = this.pending.get(keyHash, window);
    if (t === undefined) return;
    t.amount -= amount;
    t.count -= 1;
    if (t.count <= 0) this.pending.delete(keyHash, window);
  }
}
