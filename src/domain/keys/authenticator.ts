import { errors } from '../../errors/index.js';
import type { Clock } from '../common/clock.js';
import { digestToken, digestsEqual } from './tokens.js';
import type { KeyRecord, KeyRepository } from './types.js';

export interface AuthenticatorOptions {
  keys: Pick<KeyRepository, 'findByDigest'>;
  clock: Clock;
  /** Changes when another process wrote to the store; a change empties the cache. */
  externalChangeMarker: () => number | null;
  /** Where no change marker exists, cached records are re-read after this long. */
  revalidateAfterMs: number;
  maxEntries?: number;
}

interface Entry {
  record: KeyRecord;
  loadedAt: number;
}

/**
 * Token → key record, with an in-process cache. Every write to a key calls `forget(hash)`, so
 * rotation, disabling and deletion take effect on the very next request; expiry is checked on
 * every call against the clock, so it needs no invalidation.
 */
export class KeyAuthenticator {
  private readonly byDigest = new Map<string, Entry>();
  private readonly digestByHash = new Map<string, string>();
  private marker: number | null;

  constructor(private readonly options: AuthenticatorOptions) {
    this.marker = options.externalChangeMarker();
  }

  async authenticate(token: string): Promise<KeyRecord> {
    const digest = digestToken(token);
    const record = await this.lookup(digest);
    if (record === null || !digestsEqual(record.tokenDigest, digest)) throw errors.invalidAuth('Invalid API key');
    if (record.disabled) throw errors.invalidAuth('This key is disabled');
    if (record.expiresAt !== null && Date.parse(record.expiresAt) <= this.options.clock.now().getTime()) {
      throw errors.invalidAuth('This key has expired');
    }
    return record;
  }

  /** Drops whatever is cached for the key, under its old and new digest alike. */
  forget(hash: string): void {
    const digest = this.digestByHash.get(hash);
    if (digest !== undefined) this.byDigest.delete(digest);
    this.digestByHash.delete(hash);
  }

  clear(): void {
    this.byDigest.clear();
    this.digestByHash.clear();
  }

  private async lookup(digest: string): Promise<KeyRecord | null> {
    const marker = this.options.externalChangeMarker();
    if (marker !== this.marker) {
      this.marker = marker;
      this.clear();
    }
    const now = Date.now();
    const hit = this.byDigest.get(digest);
    if (hit !== undefined && (marker !== null || now - hit.loadedAt < this.options.revalidateAfterMs)) {
      return hit.record;
    }
    const record = await this.options.keys.findByDigest(digest);
    if (record === null) {
      if (hit !== undefined) this.forget(hit.record.hash);
      return null;
    }
    if (this.byDigest.size >= (this.options.maxEntries ?? 100_000)) this.clear();
    this.forget(record.hash);
    this.byDigest.set(digest, { record, loadedAt: now });
    this.digestByHash.set(record.hash, digest);
    return record;
  }
}
