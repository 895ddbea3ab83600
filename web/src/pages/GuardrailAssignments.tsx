import { useState } from 'preact/hooks';
import { get, post } from '../api/client.js';
import { listAssignments, memberName } from '../api/resources.js';
import type { Guardrail, Key, KeyAssignment, Member, MemberAssignment, Page, Workspace } from '../api/types.js';
import { useAction, useLoad } from '../components/hooks.js';
import { ErrorBox } from '../components/ui.js';
import { href } from '../router.js';

export interface GuardrailAssignmentsProps {
  guardrail: Guardrail;
  keys: Key[];
  members: Member[];
  /** Every guardrail and workspace, to name where a key or member is now. */
  guardrails: Guardrail[];
  workspaces: Workspace[];
}

/** The warning under a picker: assigning moves the pick off the guardrail it holds. */
function MoveWarning({ from, what }: { from: string | null; what: string }) {
  if (from === null) return null;
  return (
    <p class="warn-text small" role="status" data-testid="move-warning">
      Assigning moves {what} from “{from}” to this guardrail.
    </p>
  );
}

/** Which keys and members this guardrail governs; assigning moves a key or member here. */
export function GuardrailAssignments(props: GuardrailAssignmentsProps) {
  const id = props.guardrail.id;
  const held = useLoad((s) => listAssignments(s), [id]);
  const guardrailName = (gid: string | undefined) =>
    gid === undefined ? null : (props.guardrails.find((g) => g.id === gid)?.name ?? gid);
  const workspaceName = (wid: string) => props.workspaces.find((w) => w.id === wid)?.name ?? wid;
  /** The other guardrail a key or member holds now (null: none, or this one). */
  const elsewhere = (gid: string | undefined) => (gid === undefined || gid === id ? null : guardrailName(gid));
  const keysA = useLoad(
    (s) => get<Page<KeyAssignment>>(`/guardrails/${id}/assignments/keys`, { query: { limit: 100 }, signal: s }),
    [id],
  );
  const membersA = useLoad(
    (s) => get<Page<MemberAssignment>>(`/guardrails/${id}/assignments/members`, { query: { limit: 100 }, signal: s }),
    [id],
  );
  const [keyPick, setKeyPick] = useState('');
  const [memberPick, setMemberPick] = useState('');
  const action = useAction();
  const memberById = new Map(props.members.map((m) => [m.id, m]));
  const assignedKeys = new Set((keysA.data?.data ?? []).map((a) => a.key_hash));
  const assignedMembers = new Set((membersA.data?.data ?? []).map((a) => a.user_id));

  const change = async (path: string, body: unknown, reload: () => void) => {
    if ((await action.run(() => post(`/guardrails/${id}/assignments/${path}`, body))) !== undefined) {
      reload();
      held.reload();
    }
  };
  const keyFrom = keyPick === '' ? null : elsewhere(held.data?.keys.get(keyPick));
  const memberFrom = memberPick === '' ? null : elsewhere(held.data?.members.get(memberPick));

  return (
    <div class="panel">
      <h2>Assignments</h2>
      <ErrorBox error={action.error ?? keysA.error ?? membersA.error ?? held.error} />
      <div class="grid2">
        <div>
          <h3>Keys</h3>
          <ul>
            {(keysA.data?.data ?? []).map((a) => (
              <li key={a.key_hash}>
                <a href={href('/keys', { hash: a.key_hash })}>{a.key_name}</a>{' '}
                <span class="mono small">{a.key_label}</span>{' '}
                <button
                  type="button"
                  class="link"
                  onClick={() => void change('keys/remove', { key_hashes: [a.key_hash] }, keysA.reload)}
                >
                  Unassign<span class="skip"> {a.key_name}</span>
                </button>
              </li>
            ))}
            {keysA.data?.data.length === 0 ? <li class="muted">No key.</li> : null}
          </ul>
          <div class="row">
            <label>
              Assign a key
              <select value={keyPick} onChange={(e) => setKeyPick(e.currentTarget.value)}>
                <option value="">choose…</option>
                {props.keys
                  .filter((k) => !assignedKeys.has(k.hash))
                  .map((k) => (
                    <option key={k.hash} value={k.hash}>
                      {k.name} ({k.label}) · workspace {workspaceName(k.workspace_id)} · guardrail{' '}
                      {guardrailName(held.data?.keys.get(k.hash)) ?? 'none'}
                    </option>
                  ))}
              </select>
            </label>
            <button
              type="button"
              disabled={keyPick === '' || action.busy}
              onClick={() => void change('keys', { key_hashes: [keyPick] }, () => (setKeyPick(''), keysA.reload()))}
            >
              Assign key
            </button>
          </div>
          <MoveWarning from={keyFrom} what="this key" />
        </div>
        <div>
          <h3>Members</h3>
          <ul>
            {(membersA.data?.data ?? []).map((a) => {
              const m = memberById.get(a.user_id);
              const name = m === undefined ? a.user_id : memberName(m);
              return (
                <li key={a.user_id}>
                  {name}{' '}
                  <button
                    type="button"
                    class="link"
                    onClick={() => void change('members/remove', { member_user_ids: [a.user_id] }, membersA.reload)}
                  >
                    Unassign<span class="skip"> {name}</span>
                  </button>
                </li>
              );
            })}
            {membersA.data?.data.length === 0 ? <li class="muted">No member.</li> : null}
          </ul>
          <div class="row">
            <label>
              Assign a member
              <select value={memberPick} onChange={(e) => setMemberPick(e.currentTarget.value)}>
                <option value="">choose…</option>
                {props.members
                  .filter((m) => !assignedMembers.has(m.id))
                  .map((m) => (
                    <option key={m.id} value={m.id}>
                      {memberName(m)} · guardrail {guardrailName(held.data?.members.get(m.id)) ?? 'none'}
                    </option>
                  ))}
              </select>
            </label>
            <button
              type="button"
              disabled={memberPick === '' || action.busy}
              onClick={() =>
                void change('members', { member_user_ids: [memberPick] }, () => (setMemberPick(''), membersA.reload()))
              }
            >
              Assign member
            </button>
          </div>
          <MoveWarning from={memberFrom} what="this member" />
        </div>
      </div>
    </div>
  );
}
