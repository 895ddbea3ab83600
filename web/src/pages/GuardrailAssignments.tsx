import { useState } from 'preact/hooks';
import { get, post } from '../api/client.js';
import { memberName } from '../api/resources.js';
import type { Guardrail, Key, KeyAssignment, Member, MemberAssignment, Page } from '../api/types.js';
import { useAction, useLoad } from '../components/hooks.js';
import { ErrorBox } from '../components/ui.js';
import { href } from '../router.js';

/** Which keys and members this guardrail governs; assigning moves a key or member here. */
export function GuardrailAssignments(props: { guardrail: Guardrail; keys: Key[]; members: Member[] }) {
  const id = props.guardrail.id;
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
    if ((await action.run(() => post(`/guardrails/${id}/assignments/${path}`, body))) !== undefined) reload();
  };

  return (
    <div class="panel">
      <h2>Assignments</h2>
      <ErrorBox error={action.error ?? keysA.error ?? membersA.error} />
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
                      {k.name} ({k.label})
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
                      {memberName(m)}
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
        </div>
      </div>
    </div>
  );
}
