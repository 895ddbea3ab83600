import { createHash, randomBytes, randomFillSync, randomUUID } from 'node:crypto';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** Clerk-style user id: `user_` + 27 random base62 characters. */
export function newUserId(): string {
  const bytes = randomBytes(27);
  let out = 'user_';
  for (const b of bytes) out += ALPHABET[b % ALPHABET.length];
  return out;
}

export const newUuid = (): string => randomUUID();

/** Random bytes drawn from a pool refilled by one `randomFillSync` per 4 KB (one syscall per ~400 ids, not one per id). */
const pool = Buffer.alloc(4096);
let poolOffset = pool.length;

/** `bytes` cryptographically random bytes as lowercase hex; each byte is used once. */
export function randomHex(bytes: number): string {
  if (bytes > pool.length) return randomBytes(bytes).toString('hex');
  if (poolOffset + bytes > pool.length) {
    randomFillSync(pool);
    poolOffset = 0;
  }
  const out = pool.toString('hex', poolOffset, poolOffset + bytes);
  poolOffset += bytes;
  return out;
}

/** A UUID derived deterministically from a name (same input, same UUID; version nibble 8). */
export function derivedUuid(namespace: string, name: string): string {
  const h = createHash('sha256').update(`${namespace}:${name}`).digest('hex');
  const variant = ((parseInt(h.slice(16, 17), 16) & 0x3) | 0x8).toString(16);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-8${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const isUuid = (value: string): boolean => UUID_PATTERN.test(value);
