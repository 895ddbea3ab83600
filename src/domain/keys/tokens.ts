import { hash, randomBytes, timingSafeEqual } from 'node:crypto';

export const TOKEN_PREFIX = 'sk-sy-v1-';

/** A new bearer token: the prefix and 256 random bits as 64 hex characters. */
export function generateToken(): string {
  return TOKEN_PREFIX + randomBytes(32).toString('hex');
}

/**
 * SHA-256 of the token (UTF-8), hex. The only form in which a token is ever stored. Every
 * authenticated request computes it: the one-shot `hash` makes no Hash object (a third of the cost).
 */
export function digestToken(token: string): string {
  return hash('sha256', token, 'hex');
}

/** Constant-time equality of two hex digests of equal length. */
export function digestsEqual(a: string, b: string): boolean {
  const left = Buffer.from(a, 'hex');
  const right = Buffer.from(b, 'hex');
  return left.length === right.length && left.length > 0 && timingSafeEqual(left, right);
}

/** The public key id: random, fixed at creation, unrelated to the token. */
export const newKeyHash = (): string => randomBytes(32).toString('hex');

/** A masked preview that identifies a token to a human without revealing it. */
export function maskToken(token: string): string {
  const secret = token.slice(TOKEN_PREFIX.length);
  return `${TOKEN_PREFIX}${secret.slice(0, 3)}...${secret.slice(-3)}`;
}
