import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { errors, isGatewayError } from '../../errors/index.js';
import type { Clock } from '../common/clock.js';
import { digestToken } from '../keys/tokens.js';
import type { KeyRecord } from '../keys/types.js';
import type { MemberRecord } from '../members/types.js';
import { loadPerson, type Person, type PersonSources } from './person.js';
import type { ConsoleSessionRepository, ConsoleSessionRow } from './types.js';
import { recordAudit } from '../audit/record.js';
import type { AuditRepository } from '../audit/types.js';

export interface ConsoleSessionsOptions {
  sessions: ConsoleSessionRepository;
  /** The key authenticator (its cache is kept coherent across replicas by the change feed). */
  keys: {
    authenticate(token: string, options?: { guarded?: boolean }): Promise<KeyRecord>;
    authenticateDigest(digest: string): Promise<KeyRecord>;
  };
  /** Members and their roles, read on every use of a person's session (so changes apply at once). */
  members: { findById(id: string): Promise<MemberRecord | null> };
  people: PersonSources;
  /** Sign-ins and refused sign-ins are recorded here (actor `console`). */
  audit?: AuditRepository;
  clock: Clock;
  /** A session unused for this long has ended. */
  idleMs: number;
  /** `last_seen_at` is written at most this often per session (default min(60 s, idleMs / 10)). */
  touchEveryMs?: number;
}

/** What a live session resolves to: a management key (break-glass) or a person (single sign-on). */
export interface ConsoleSession {
  key: KeyRecord | null;
  person: Person | null;
  csrfToken: string;
  /** ISO-8601: when the session ends if it stays unused. */
  expiresAt: string;
}

export interface SignedIn extends ConsoleSession {
  /** Goes into the HttpOnly cookie and nowhere else. */
  token: string;
}

const CSRF_CONTEXT = 'switchyard console csrf v1';

/**
 * Console sign-in: a management key is exchanged once for a random session token, stored only as
 * its digest. Every use re-checks the key through the key authenticator by the digest recorded
 * at sign-in, so the session ends as soon as the key is rotated, disabled, expired or deleted
 * (on every replica: the authenticator's cache follows the change feed). The anti-CSRF token is
 * derived from the session token (HMAC), so it needs no storage and dies with the session.
 */
export class ConsoleSessions {
  private readonly touchEveryMs: number;

  constructor(private readonly options: ConsoleSessionsOptions) {
    this.touchEveryMs = options.touchEveryMs ?? Math.min(60_000, Math.floor(options.idleMs / 10));
  }

  /**
   * 401 for an unusable key, 403 for an API key; both are written to the audit log unless
   * `guarded` (the address is over its failed sign-in limit: its refusals are not recorded, so a
   * flood writes nothing, and an unknown key is refused without reading the store).
   */
  async signIn(managementKey: string, from: { address: string; guarded?: boolean }): Promise<SignedIn> {
    const key = await this.options.keys
      .authenticate(managementKey, { guarded: from.guarded === true })
      .catch(async (error: unknown) => {
        if (from.guarded !== true && isStatus(error, 401))
          await this.audit('console.sign_in_failed', from.address, null, 'invalid_key');
        throw error;
      });
    if (key.kind !== 'management') {
      if (from.guarded !== true) await this.audit('console.sign_in_failed', from.address, key, 'not_management');
      throw errors.managementOnly();
    }
    const { token, now } = await this.open({ keyHash: key.hash, keyTokenDigest: key.tokenDigest, memberId: null });
    await this.audit('console.sign_in', from.address, key, null);
    return { token, key, person: null, csrfToken: csrfTokenOf(token), expiresAt: this.expiry(now) };
  }

  /** A session for a member whose identity the caller has established (single sign-on); 403 when disabled. */
  async signInMember(member: MemberRecord): Promise<SignedIn> {
    if (member.disabledAt !== null) throw errors.forbidden('This member is disabled');
    const person = await loadPerson(member, this.options.people);
    const { token, now } = await this.open({ keyHash: null, keyTokenDigest: null, memberId: member.id });
    return { token, key: null, person, csrfToken: csrfTokenOf(token), expiresAt: this.expiry(now) };
  }

  private async open(owner: Pick<ConsoleSessionRow, 'keyHash' | 'keyTokenDigest' | 'memberId'>) {
    const token = randomBytes(32).toString('base64url');
    const now = this.options.clock.now();
    await this.options.sessions.deleteIdleSince(new Date(now.getTime() - this.options.idleMs).toISOString());
    await this.options.sessions.insert({
      tokenDigest: digestToken(token),
      ...owner,
      createdAt: now.toISOString(),
      lastSeenAt: now.toISOString(),
    });
    return { token, now: now.getTime() };
  }

  private async audit(action: string, address: string, key: KeyRecord | null, reason: string | null): Promise<void> {
    if (this.options.audit === undefined) return;
    const actor = { kind: 'console' as const, memberId: key?.creatorUserId ?? null, keyHash: key?.hash ?? null };
    const changes = reason === null ? { address } : { address, reason };
    const entry = { action, targetType: 'key', targetId: key?.hash ?? '-', changes };
    await recordAudit(this.options.audit, entry, { ctx: { actor }, clock: this.options.clock });
  }

  /** The live session of a cookie's token; 401 when it is unknown, idle too long, or its key no longer authenticates. */
  async resume(token: string): Promise<ConsoleSession> {
    const digest = digestToken(token);
    const row = await this.options.sessions.find(digest);
    if (row === null) throw errors.invalidAuth('Console session ended; sign in again');
    const now = this.options.clock.now().getTime();
    const lastSeen = Date.parse(row.lastSeenAt);
    if (now - lastSeen >= this.options.idleMs) {
      await this.options.sessions.delete(digest);
      throw errors.invalidAuth('Console session expired; sign in again');
    }
    const owner = row.memberId !== null ? await this.person(row.memberId, digest) : await this.key(row, digest);
    let seen = lastSeen;
    if (now - lastSeen >= this.touchEveryMs) {
      await this.options.sessions.touch(digest, new Date(now).toISOString());
      seen = now;
    }
    return { ...owner, csrfToken: csrfTokenOf(token), expiresAt: this.expiry(seen) };
  }

  private async key(row: ConsoleSessionRow, digest: string): Promise<{ key: KeyRecord; person: null }> {
    let key: KeyRecord;
    try {
      key = await this.options.keys.authenticateDigest(row.keyTokenDigest ?? '');
    } catch (error) {
      // 401 (rotated, disabled, expired, deleted) ends the session; a store outage (503) does not.
      if (isStatus(error, 401)) await this.options.sessions.delete(digest);
      throw isStatus(error, 401) ? errors.invalidAuth('Console session ended: its management key changed') : error;
    }
    if (key.kind !== 'management' || key.hash !== row.keyHash) {
      await this.options.sessions.delete(digest);
      throw errors.invalidAuth('Console session ended; sign in again');
    }
    return { key, person: null };
  }

  /** A person's session lives only while the member exists and is not disabled (checked on every use). */
  private async person(memberId: string, digest: string): Promise<{ key: null; person: Person }> {
    const member = await this.options.members.findById(memberId);
    if (member === null || member.disabledAt !== null) {
      await this.options.sessions.delete(digest);
      throw errors.invalidAuth('Console session ended: this member was disabled');
    }
    return { key: null, person: await loadPerson(member, this.options.people) };
  }

  /** Ends every session of a member at once (disabled or removed). */
  endMemberSessions(memberId: string): Promise<number> {
    return this.options.sessions.deleteForMember(memberId);
  }

  async signOut(token: string): Promise<void> {
    await this.options.sessions.delete(digestToken(token));
  }

  /** Constant-time check of a request's anti-CSRF header against the session's token. */
  csrfMatches(token: string, header: string | undefined): boolean {
    if (header === undefined) return false;
    const expected = Buffer.from(csrfTokenOf(token));
    const given = Buffer.from(header);
    return expected.length === given.length && timingSafeEqual(expected, given);
  }

  get idleMs(): number {
    return this.options.idleMs;
  }

  private expiry(lastSeen: number): string {
    return new Date(lastSeen + this.options.idleMs).toISOString();
  }
}

export function csrfTokenOf(sessionToken: string): string {
  return createHmac('sha256', sessionToken).update(CSRF_CONTEXT).digest('base64url');
}

const isStatus = (error: unknown, status: number): boolean => isGatewayError(error) && error.status === status;
