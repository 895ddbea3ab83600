import { windowKind } from './windows.js';

/**
 * In-memory money bookkeeping of the meter, all synchronous (so a check-and-reserve never
 * interleaves with another): in-flight reservations per key, settled-but-unwritten spend per key
 * and window, and the committed (stored) spend cached per key and window.
 */
interface Tally {
  amount: number;
  count: number;
}

export interface CachedSpend {
  amount: number;
  loadedAtMs: number;
}

const slot = (keyHash: string, window: string): string => `${keyHash}\n${window}`;

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
  private readonly pending = new Map<string, Tally>();
  private readonly committed = new Map<string, Map<string, CachedSpend>>();

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
    return this.pending.get(slot(keyHash, window))?.amount ?? 0;
  }

  addPending(keyHash: string, window: string, amount: number): void {
    add(this.pending, slot(keyHash, window), amount);
  }

  /** A queued delta reached the database: it moves from pending to the cached committed spend. */
  commitPending(keyHash: string, window: string, amount: number): void {
    remove(this.pending, slot(keyHash, window), amount);
    const cached = this.committed.get(keyHash)?.get(window);
    if (cached !== undefined) cached.amount += amount;
  }

  cached(keyHash: string, window: string): CachedSpend | undefined {
    return this.committed.get(keyHash)?.get(window);
  }

  /** Caches a stored amount; drops the key's entries of the same kind for past windows. */
  cache(keyHash: string, window: string, amount: number, loadedAtMs: number): void {
    let windows = this.committed.get(keyHash);
    if (windows === undefined) {
      windows = new Map();
      this.committed.set(keyHash, windows);
    }
    const kind = windowKind(window);
    for (const old of windows.keys()) if (old !== window && windowKind(old) === kind) windows.delete(old);
    windows.set(window, { amount, loadedAtMs });
  }
}
