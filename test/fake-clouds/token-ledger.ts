import { randomBytes } from 'node:crypto';

/**
 * The access tokens a fake token endpoint issued, so the fake clouds can accept exactly those.
 * Tests steer it: `expiresInSeconds` for the next tokens, `failNext(n)` to refuse n grants.
 */
export class TokenLedger {
  expiresInSeconds = 3599;
  private failures = 0;
  private readonly tokens = new Map<string, { audience: string; expiresAt: number }>();
  /** Every grant asked for, in order (accepted or not). */
  grants = 0;

  constructor(private readonly prefix: string) {}

  issue(audience: string): { token: string; expiresIn: number } {
    const token = `${this.prefix}${randomBytes(24).toString('base64url')}`;
    this.tokens.set(token, { audience, expiresAt: Date.now() + this.expiresInSeconds * 1000 });
    return { token, expiresIn: this.expiresInSeconds };
  }

  /** True for a token this endpoint issued, still valid, for that audience. */
  isValid(token: string | null, audience: string): boolean {
    if (token === null) return false;
    const entry = this.tokens.get(token);
    return entry !== undefined && entry.audience === audience && entry.expiresAt > Date.now();
  }

  /** The next `count` grants fail (the endpoint answers an error). */
  failNext(count: number): void {
    this.failures = count;
  }

  /** Consumes one scripted failure; true when this grant must fail. */
  shouldFail(): boolean {
    this.grants++;
    if (this.failures <= 0) return false;
    this.failures--;
    return true;
  }

  revokeAll(): void {
    this.tokens.clear();
  }
}
