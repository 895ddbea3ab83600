/**
 * Values per (account, window), kept as account → window → value: a lookup hashes the two
 * strings the caller already holds (their hashes are cached on them) instead of building and
 * hashing a joined `account\nwindow` key on every call of the hot path.
 */
export class SlotMap<V> {
  private readonly byAccount = new Map<string, Map<string, V>>();

  get(account: string, window: string): V | undefined {
    return this.byAccount.get(account)?.get(window);
  }

  set(account: string, window: string, value: V): void {
    const byWindow = this.byAccount.get(account);
    if (byWindow === undefined) this.byAccount.set(account, new Map([[window, value]]));
    else byWindow.set(window, value);
  }

  delete(account: string, window: string): boolean {
    const byWindow = this.byAccount.get(account);
    if (byWindow === undefined || !byWindow.delete(window)) return false;
    if (byWindow.size === 0) this.byAccount.delete(account);
    return true;
  }

  /** A snapshot: the map may be changed while it is walked. */
  values(): V[] {
    const out: V[] = [];
    for (const byWindow of this.byAccount.values()) for (const value of byWindow.values()) out.push(value);
    return out;
  }

  clear(): void {
    this.byAccount.clear();
  }
}
