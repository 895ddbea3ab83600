/**
 * A compact set of token digests (hex SHA-256): each is kept as its first 128 bits in an
 * open-addressing table of 32-bit words (linear probing, backward-shift deletion), so the set
 * holds no JavaScript object per key and the garbage collector never walks it.
 *
 * Memory: 16 bytes per slot; the table doubles when it is three quarters full, so it spends
 * 21–43 bytes per key, 16 KiB at least (1 M keys: 2^21 slots, 32 MiB). `bytes()` says how much.
 *
 * A 128-bit prefix of a SHA-256 digest is as good as the digest for telling stored tokens from
 * others: a random token matches a stored one with probability n / 2^128. Callers still verify
 * a hit against the store, so a prefix match could only ever cost a read, never admit a token.
 */
const WORDS = 4;
const MIN_SLOTS = 1024;

export class DigestSet {
  private table: Uint32Array;
  private mask: number;
  private count = 0;
  /** The all-zero prefix marks an empty slot, so it is remembered apart. */
  private zero = false;

  constructor(expected = 0) {
    let slots = MIN_SLOTS;
    while (slots * 0.75 < expected) slots *= 2;
    this.table = new Uint32Array(slots * WORDS);
    this.mask = slots - 1;
  }

  get size(): number {
    return this.count + (this.zero ? 1 : 0);
  }

  /** Bytes held by the table. */
  bytes(): number {
    return this.table.byteLength;
  }

  has(digest: string): boolean {
    const words = prefix(digest);
    if (words === null) return false;
    if (isZero(words)) return this.zero;
    return this.find(words) >= 0;
  }

  add(digest: string): void {
    const words = prefix(digest);
    if (words === null) return;
    if (isZero(words)) {
      this.zero = true;
      return;
    }
    if (this.find(words) >= 0) return;
    if (this.count + 1 > (this.mask + 1) * 0.75) this.grow();
    this.place(words);
    this.count += 1;
  }

  delete(digest: string): void {
    const words = prefix(digest);
    if (words === null) return;
    if (isZero(words)) {
      this.zero = false;
      return;
    }
    let hole = this.find(words);
    if (hole < 0) return;
    this.count -= 1;
    // Backward shift: move later entries of the probe run into the hole so lookups stay correct.
    let slot = hole;
    for (;;) {
      slot = (slot + 1) & this.mask;
      if (this.empty(slot)) break;
      const home = (this.table[slot * WORDS] ?? 0) & this.mask;
      // The entry may move to `hole` unless its home lies cyclically within (hole, slot].
      const between = hole <= slot ? home > hole && home <= slot : home > hole || home <= slot;
      if (between) continue;
      this.table.copyWithin(hole * WORDS, slot * WORDS, slot * WORDS + WORDS);
      hole = slot;
    }
    this.table.fill(0, hole * WORDS, hole * WORDS + WORDS);
  }

  private find(words: Uint32Array): number {
    let slot = (words[0] ?? 0) & this.mask;
    for (;;) {
      if (this.empty(slot)) return -1;
      const at = slot * WORDS;
      if (
        this.table[at] === words[0] &&
        this.table[at + 1] === words[1] &&
        this.table[at + 2] === words[2] &&
        this.table[at + 3] === words[3]
      )
        return slot;
      slot = (slot + 1) & this.mask;
    }
  }

  private place(words: Uint32Array): void {
    let slot = (words[0] ?? 0) & this.mask;
    while (!this.empty(slot)) slot = (slot + 1) & this.mask;
    this.table.set(words, slot * WORDS);
  }

  private empty(slot: number): boolean {
    const at = slot * WORDS;
    return this.table[at] === 0 && this.table[at + 1] === 0 && this.table[at + 2] === 0 && this.table[at + 3] === 0;
  }

  private grow(): void {
    const old = this.table;
    this.table = new Uint32Array(old.length * 2);
    this.mask = (this.mask + 1) * 2 - 1;
    for (let at = 0; at < old.length; at += WORDS) {
      const words = old.subarray(at, at + WORDS);
      if (!isZero(words)) this.place(words);
    }
  }
}

const scratch = new Uint32Array(WORDS);
const HEX_DIGEST = /^[0-9a-f]{64}$/;

/** The first 128 bits of a hex digest as four words (a shared scratch array); null for anything else. */
function prefix(digest: string): Uint32Array | null {
  if (!HEX_DIGEST.test(digest)) return null;
  for (let i = 0; i < WORDS; i += 1) scratch[i] = Number.parseInt(digest.slice(i * 8, i * 8 + 8), 16);
  return scratch;
}

const isZero = (words: Uint32Array): boolean => words[0] === 0 && words[1] === 0 && words[2] === 0 && words[3] === 0;
