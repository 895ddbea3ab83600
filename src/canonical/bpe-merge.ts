/**
 * How many parts byte-pair merging leaves of `length` bytes, where `rankOf(from, to)` is the rank
 * of the bytes [from, to) or -1 when they are no token. The merge order is the usual one: the
 * adjacent pair of lowest rank first, the leftmost on ties, until no adjacent pair is a token.
 *
 * A rescan of every pair after each merge takes time quadratic in the length; this keeps the
 * pairs in a binary heap ordered by (rank, start) with a linked list of parts, so a merge costs
 * a logarithm. A heap entry that a merge made stale (its pair changed) is skipped when popped.
 * The order of merges, and so the count, is the rescan's.
 */
export function heapMergedParts(length: number, rankOf: (from: number, to: number) => number): number {
  if (length < 2) return length;
  // Parts are named by their first byte; next[i] is the following part's first byte (length at the end).
  const next = new Int32Array(length);
  const prev = new Int32Array(length);
  // The rank of the pair starting at part i, or -1 (no pair, no token, or part i merged away).
  const pairRank = new Float64Array(length).fill(-1);
  for (let i = 0; i < length; i++) {
    next[i] = i + 1;
    prev[i] = i - 1;
  }
  const heap = new PairHeap();
  const rate = (i: number): void => {
    const j = next[i] ?? length;
    const end = j < length ? (next[j] ?? length) : -1;
    const rank = end < 0 ? -1 : rankOf(i, end);
    pairRank[i] = rank;
    if (rank >= 0) heap.push(rank, i);
  };
  for (let i = 0; i < length - 1; i++) rate(i);
  let parts = length;
  while (heap.size > 0) {
    const rank = heap.topRank();
    const i = heap.pop();
    if (pairRank[i] !== rank) continue; // stale: the pair at i changed since it was pushed
    const j = next[i] ?? length;
    const after = next[j] ?? length;
    next[i] = after;
    if (after < length) prev[after] = i;
    pairRank[j] = -1;
    parts--;
    rate(i);
    const before = prev[i] ?? -1;
    if (before >= 0) rate(before);
  }
  return parts;
}

/** A binary min-heap of (rank, start) pairs, ordered by rank, then start. */
class PairHeap {
  private ranks: number[] = [];
  private starts: number[] = [];

  get size(): number {
    return this.ranks.length;
  }

  topRank(): number {
    return this.ranks[0] ?? -1;
  }

  push(rank: number, start: number): void {
    let at = this.ranks.length;
    this.ranks.push(rank);
    this.starts.push(start);
    while (at > 0) {
      const parent = (at - 1) >> 1;
      if (!this.less(at, parent)) break;
      this.swap(at, parent);
      at = parent;
    }
  }

  /** Removes the least pair and returns its start. */
  pop(): number {
    const top = this.starts[0] ?? -1;
    const lastRank = this.ranks.pop() ?? -1;
    const lastStart = this.starts.pop() ?? -1;
    if (this.ranks.length === 0) return top;
    this.ranks[0] = lastRank;
    this.starts[0] = lastStart;
    let at = 0;
    for (;;) {
      const left = 2 * at + 1;
      if (left >= this.ranks.length) break;
      const right = left + 1;
      const child = right < this.ranks.length && this.less(right, left) ? right : left;
      if (!this.less(child, at)) break;
      this.swap(at, child);
      at = child;
    }
    return top;
  }

  private less(a: number, b: number): boolean {
    const ra = this.ranks[a] ?? 0;
    const rb = this.ranks[b] ?? 0;
    return ra < rb || (ra === rb && (this.starts[a] ?? 0) < (this.starts[b] ?? 0));
  }

  private swap(a: number, b: number): void {
    const rank = this.ranks[a] ?? 0;
    const start = this.starts[a] ?? 0;
    this.ranks[a] = this.ranks[b] ?? 0;
    this.starts[a] = this.starts[b] ?? 0;
    this.ranks[b] = rank;
    this.starts[b] = start;
  }
}
