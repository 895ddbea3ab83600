import type { Clock } from '../common/clock.js';
import { recordAudit } from '../audit/record.js';
import type { AuditRepository, WriteContext } from '../audit/types.js';
import type { GuardrailRepository, NewAssignment } from './types.js';

export type AssigneeKind = 'keys' | 'members';

/**
 * Assigns keys or members to a guardrail. A key or member holds one guardrail, so an assignment
 * moves it off the one it held: each such implicit unassignment is recorded in the audit log as
 * `guardrail.<kind>.unassign` on the previous guardrail (with `moved_to`), in the caller's
 * transaction, so the log shows both sides of the move.
 */
export async function assignMoving(
  repos: { guardrails: GuardrailRepository; audit: AuditRepository },
  move: { kind: AssigneeKind; guardrailId: string; rows: NewAssignment[] },
  context: { ctx: WriteContext; clock: Clock },
): Promise<number> {
  const previous = new Map<string, string[]>();
  for (const row of move.rows) {
    const held =
      move.kind === 'keys'
        ? await repos.guardrails.guardrailOfKey(row.target)
        : await repos.guardrails.guardrailOfMember(row.target);
    if (held === null || held.id === move.guardrailId) continue;
    previous.set(held.id, [...(previous.get(held.id) ?? []), row.target]);
  }
  const changed =
    move.kind === 'keys'
      ? await repos.guardrails.assignKeys(move.rows)
      : await repos.guardrails.assignMembers(move.rows);
  const field = move.kind === 'keys' ? 'key_hashes' : 'member_user_ids';
  for (const [id, targets] of previous) {
    await recordAudit(
      repos.audit,
      {
        action: `guardrail.${move.kind}.unassign`,
        targetType: 'guardrail',
        targetId: id,
        changes: { [field]: targets, moved_to: move.guardrailId },
      },
      context,
    );
  }
  return changed;
}
