import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { CL_AND_O_TOKEN_SPLIT_PATTERN } from 'gpt-tokenizer/encodingParams/constants';
import { heapMergedParts } from './bpe-merge.js';

/**
 * Counts o200k_base tokens exactly as gpt-tokenizer's `countTokens` does, from compact tables:
 * the package's own rank file (`data/o200k_base.tiktoken`) decoded into one byte blob and an
 * open-addressing hash table of typed arrays, instead of the package's JavaScript rank module
 * (200,000 strings, a `Map` over them and a merge cache). Same split pattern and merge order, so
 * the count is the package's; the differential test checks it. Special-token strings such as
 * `<|endoftext|>` are counted as the ordinary text they are (the package's
 * `disallowedSpecial: new Set()`): a client's prompt may contain them, and an estimate never fails.
 *
 * The package's quirks are kept on purpose, because the count must not change:
 * - a piece is looked up whole only when it is well-formed UTF-16 (the package looks pieces up
 *   as strings; a lone surrogate is encoded as U+FFFD and merged from bytes);
 * - byte slices that are valid UTF-8 are looked up through `TextDecoder`, which drops a leading
 *   byte-order mark, so a slice starting with EF BB BF finds the rank of what follows it, and the
 *   ranks whose bytes start with a byte-order mark are never found.
 */
export type TokenCounter = (text: string) => number;

interface Tables {
  blob: Uint8Array;
  /** Start of entry i's bytes in `blob`; entry i ends where entry i + 1 starts. */
  offsets: Uint32Array;
  ranks: Int32Array;
  /** Entry index + 1 per slot, 0 for an empty slot. */
  slots: Int32Array;
  mask: number;
}

/** Builds the counter from the package's rank file (a few MB read, no per-token objects). */
export function loadO200kCounter(): TokenCounter {
  const file = readFileSync(createRequire(import.meta.url).resolve('gpt-tokenizer/data/o200k_base.tiktoken'));
  const tables = buildTables(file);
  let scratch = new Uint8Array(256);
  // Pieces that needed merging (words outside the vocabulary), counted once: bounded, emptied when full.
  const merged = new Map<string, number>();
  return (text) => {
    let count = 0;
    for (const [piece] of text.matchAll(CL_AND_O_TOKEN_SPLIT_PATTERN)) {
      if (piece.length === 1 && piece.charCodeAt(0) <= 0x7f) {
        count += 1;
        continue;
      }
      if (scratch.length < piece.length * 3) scratch = new Uint8Array(piece.length * 3);
      const known = merged.get(piece);
      if (known !== undefined) {
        count += known;
        continue;
      }
      const written = utf8(piece, scratch);
      if (written >= 0 && find(tables, scratch, 0, written) >= 0) {
        count += 1;
        continue;
      }
      const length = written >= 0 ? written : -written - 1;
      const parts = mergedParts(tables, scratch, length);
      if (merged.size >= MERGE_CACHE_SIZE) merged.clear();
      merged.set(piece, parts);
      count += parts;
    }
    return count;
  };
}

const MERGE_CACHE_SIZE = 4096;

const BASE64 = (() => {
  const table = new Int8Array(256).fill(-1);
  const letters = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
  for (let i = 0; i < letters.length; i++) table[letters.charCodeAt(i)] = i;
  return table;
})();

/** Parses `base64 rank` lines straight from the file's bytes into the tables. */
function buildTables(file: Buffer): Tables {
  let lines = 0;
  for (let at = file.indexOf(0x0a); at >= 0; at = file.indexOf(0x0a, at + 1)) lines++;
  const blob = new Uint8Array(Math.ceil((file.length * 3) / 4));
  const offsets = new Uint32Array(lines + 2);
  const ranks = new Int32Array(lines + 1);
  let entries = 0;
  let size = 0;
  let pos = 0;
  while (pos < file.length) {
    const start = size;
    let bits = 0;
    let value = 0;
    while (pos < file.length && file[pos] !== 0x20) {
      const digit = BASE64[file[pos] ?? 0] ?? -1;
      pos++;
      if (digit < 0) continue; // padding
      value = (value << 6) | digit;
      bits += 6;
      if (bits >= 8) {
        bits -= 8;
        blob[size++] = (value >> bits) & 0xff;
      }
    }
    pos++;
    let rank = 0;
    while (pos < file.length && file[pos] !== 0x0a) rank = rank * 10 + ((file[pos++] ?? 0x30) - 0x30);
    pos++;
    if (size === start) continue;
    if (blob[start] === 0xef && blob[start + 1] === 0xbb && blob[start + 2] === 0xbf) {
      size = start; // unreachable through the package's string lookups (see above)
      continue;
    }
    ranks[entries++] = rank;
    offsets[entries] = size;
  }
  let slotCount = 1;
  while (slotCount < entries * 2) slotCount <<= 1;
  const tables: Tables = {
    blob: blob.slice(0, size),
    offsets: offsets.slice(0, entries + 1),
    ranks: ranks.slice(0, entries),
    slots: new Int32Array(slotCount),
    mask: slotCount - 1,
  };
  for (let entry = 0; entry < entries; entry++) {
    const from = tables.offsets[entry] ?? 0;
    let slot = hash(tables.blob, from, tables.offsets[entry + 1] ?? 0) & tables.mask;
    while (tables.slots[slot] !== 0) slot = (slot + 1) & tables.mask;
    tables.slots[slot] = entry + 1;
  }
  return tables;
}

/** FNV-1a over bytes[from, to). */
function hash(bytes: Uint8Array, from: number, to: number): number {
  let h = 0x811c9dc5;
  for (let i = from; i < to; i++) h = Math.imul(h ^ (bytes[i] ?? 0), 0x01000193);
  return h >>> 0;
}

/** The rank of bytes[from, to), or -1. */
function find(t: Tables, bytes: Uint8Array, from: number, to: number): number {
  const length = to - from;
  let slot = hash(bytes, from, to) & t.mask;
  for (;;) {
    const stored = t.slots[slot] ?? 0;
    if (stored === 0) return -1;
    const start = t.offsets[stored - 1] ?? 0;
    if ((t.offsets[stored] ?? 0) - start === length) {
      let i = 0;
      while (i < length && t.blob[start + i] === bytes[from + i]) i++;
      if (i === length) return t.ranks[stored - 1] ?? -1;
    }
    slot = (slot + 1) & t.mask;
  }
}

/** The rank the package finds for a byte slice during merges (see the byte-order mark above). */
function sliceRank(t: Tables, bytes: Uint8Array, from: number, to: number): number {
  if (to - from >= 3 && bytes[from] === 0xef && bytes[from + 1] === 0xbb && bytes[from + 2] === 0xbf) {
    if (validUtf8(bytes, from, to)) return to - from === 3 ? -1 : find(t, bytes, from + 3, to);
  }
  return find(t, bytes, from, to);
}

/**
 * How many parts byte-pair merging leaves of bytes[0, length): the package's `bytePairMerge`
 * (lowest rank first, leftmost on ties), in time n log n rather than its n² (one piece can be a
 * whole request body: a long run of letters or digits without a space).
 */
function mergedParts(t: Tables, bytes: Uint8Array, length: number): number {
  return heapMergedParts(length, (from, to) => sliceRank(t, bytes, from, to));
}

/**
 * Writes text as UTF-8 into out (an unpaired surrogate as U+FFFD, as `TextEncoder` does) and
 * returns the byte length, or -length - 1 when a surrogate was replaced (the text is not
 * well-formed, so the package's whole-piece string lookup cannot match it).
 */
function utf8(text: string, out: Uint8Array): number {
  let n = 0;
  let replaced = false;
  for (let i = 0; i < text.length; i++) {
    let code = text.charCodeAt(i);
    if (code < 0x80) {
      out[n++] = code;
      continue;
    }
    if (code < 0x800) {
      out[n++] = 0xc0 | (code >> 6);
      out[n++] = 0x80 | (code & 0x3f);
      continue;
    }
    if (code >= 0xd800 && code <= 0xdfff) {
      const next = text.charCodeAt(i + 1);
      if (code <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
        const point = 0x10000 + ((code - 0xd800) << 10) + (next - 0xdc00);
        out[n++] = 0xf0 | (point >> 18);
        out[n++] = 0x80 | ((point >> 12) & 0x3f);
        out[n++] = 0x80 | ((point >> 6) & 0x3f);
        out[n++] = 0x80 | (point & 0x3f);
        i++;
        continue;
      }
      replaced = true;
      code = 0xfffd;
    }
    out[n++] = 0xe0 | (code >> 12);
    out[n++] = 0x80 | ((code >> 6) & 0x3f);
    out[n++] = 0x80 | (code & 0x3f);
  }
  return replaced ? -n - 1 : n;
}

/** Strict UTF-8 (no overlong forms, no surrogates, nothing above U+10FFFF), as the package checks it. */
function validUtf8(bytes: Uint8Array, from: number, to: number): boolean {
  let i = from;
  while (i < to) {
    const first = bytes[i] ?? 0;
    let size: number;
    let code: number;
    if (first <= 0x7f) [size, code] = [1, first];
    else if ((first & 0xe0) === 0xc0) {
      if (first <= 0xc1) return false;
      [size, code] = [2, first & 0x1f];
    } else if ((first & 0xf0) === 0xe0) [size, code] = [3, first & 0x0f];
    else if ((first & 0xf8) === 0xf0) {
      if (first > 0xf4) return false;
      [size, code] = [4, first & 0x07];
    } else return false;
    if (i + size > to) return false;
    for (let j = 1; j < size; j++) {
      const byte = bytes[i + j] ?? 0;
      if ((byte & 0xc0) !== 0x80) return false;
      code = (code << 6) | (byte & 0x3f);
    }
    if ((size === 3 && code < 0x800) || (size === 4 && code < 0x10000)) return false;
    if ((code >= 0xd800 && code <= 0xdfff) || code > 0x10ffff) return false;
    i += size;
  }
  return true;
}
