import type { AuditRecord } from '../../domain/audit/types.js';

/** An audit record in the wire shape of GET /audit-log (and `switchyard audit --json`). */
export function presentAuditRecord(r: AuditRecord) {
  return {
    id: r.id,
    created_at: r.at,
    action: r.action,
    target: { type: r.targetType, id: r.targetId },
    actor: { type: r.actor.kind, member_id: r.actor.memberId, email: r.actor.email, key_hash: r.actor.keyHash },
    changes: r.changes,
  };
}
