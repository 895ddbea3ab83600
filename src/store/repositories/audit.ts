import type { Kysely, Selectable } from 'kysely';
import type { AuditActorKind, AuditRecord, AuditRepository } from '../../domain/audit/types.js';
import type { AuditLogTable } from '../schema-audit.js';
import type { Database } from '../schema.js';

const KINDS: readonly string[] = ['key', 'cli', 'console', 'system'] satisfies AuditActorKind[];
const isActorKind = (s: string): s is AuditActorKind => KINDS.includes(s);

function toRecord(row: Selectable<AuditLogTable>): AuditRecord {
  return {
    id: row.id,
    at: row.at,
    actor: {
      kind: row.actor_kind,
      memberId: row.actor_member_id,
      email: row.actor_email,
      keyHash: row.actor_key_hash,
    },
    action: row.action,
    targetType: row.target_type,
    targetId: row.target_id,
    changes: row.changes === null ? null : (JSON.parse(row.changes) as Record<string, unknown>),
  };
}

export function createAuditRepository(db: Kysely<Database>): AuditRepository {
  return {
    async insert(r) {
      const memberId = r.actor.memberId;
      await db
        .insertInto('audit_log')
        .values({
          id: r.id,
          at: r.at,
          actor_kind: r.actor.kind,
          actor_member_id: memberId,
          // The email as it is at the time of the write, read in the same statement.
          actor_email:
            memberId === null ? null : db.selectFrom('members').select('email').where('id', '=', memberId).limit(1),
          actor_key_hash: r.actor.keyHash,
          action: r.action,
          target_type: r.targetType,
          target_id: r.targetId,
          changes: r.changes === null ? null : JSON.stringify(r.changes),
        })
        .execute();
    },
    async list(q) {
      let query = db.selectFrom('audit_log').selectAll();
      if (q.action !== undefined) query = query.where('action', '=', q.action);
      if (q.targetType !== undefined) query = query.where('target_type', '=', q.targetType);
      if (q.targetId !== undefined) query = query.where('target_id', '=', q.targetId);
      const actor = q.actor;
      if (actor !== undefined) {
        query = query.where((eb) =>
          eb.or([
            eb('actor_member_id', '=', actor),
            eb('actor_key_hash', '=', actor),
            eb('actor_email', '=', actor.toLowerCase()),
            ...(isActorKind(actor) ? [eb('actor_kind', '=', actor)] : []),
          ]),
        );
      }
      if (q.since !== undefined) query = query.where('at', '>=', q.since);
      if (q.until !== undefined) query = query.where('at', '<', q.until);
      const after = q.after;
      if (after !== undefined && after !== null) {
        query = query.where((eb) =>
          eb.or([eb('at', '<', after.at), eb.and([eb('at', '=', after.at), eb('id', '<', after.id)])]),
        );
      }
      const rows = await query.orderBy('at', 'desc').orderBy('id', 'desc').limit(q.limit).execute();
      return rows.map(toRecord);
    },
  };
}
