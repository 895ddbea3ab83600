/**
 * The audit log: one record per management write, written in the same transaction as the write
 * (docs/api.md, "Audit log"). Records name who did what to which target and the fields that
 * changed; never a token, a digest or any other secret (`auditChanges` drops them).
 */

/** Who made a write. `key`: an HTTP request with a management key; `cli`: the command line. */
export type AuditActorKind = 'key' | 'cli' | 'console' | 'system';

export interface AuditActor {
  kind: AuditActorKind;
  /** The member behind the write (a key's creator, a console session's member), if any. */
  memberId: string | null;
  /** The hash of the management key that authenticated the request (never its token). */
  keyHash: string | null;
}

/**
 * Passed as the last argument of every service method that writes: the request-scoped actor.
 * The HTTP layer builds it from the authenticated key (`src/http/audit-actor.ts`).
 */
export interface WriteContext {
  actor: AuditActor;
}

export interface AuditEntry {
  /** `<target type>.<verb>`, e.g. `key.create`, `guardrail.assign_keys`, `preset.version.create`. */
  action: string;
  targetType: string;
  targetId: string;
  /** The fields the write set (new values), or null when there is nothing to show (delete, rotate). */
  changes: Record<string, unknown> | null;
}

export interface AuditRecord extends AuditEntry {
  id: string;
  at: string;
  actor: AuditActor & { email: string | null };
}

export interface AuditQuery {
  action?: string;
  targetType?: string;
  targetId?: string;
  /** A member id, key hash or `cli`/`system`/`console` (the actor kind). */
  actor?: string;
  /** ISO-8601 bounds, inclusive `since`, exclusive `until`. */
  since?: string;
  until?: string;
  /** Newest first; the position after which to continue (from the previous page's `next`). */
  after?: { at: string; id: string } | null;
  limit: number;
}

export interface AuditRepository {
  /** Inserts one record; the actor's email is read from the member table in the same statement. */
  insert(record: Omit<AuditRecord, 'actor'> & { actor: AuditActor }): Promise<void>;
  list(query: AuditQuery): Promise<AuditRecord[]>;
}
