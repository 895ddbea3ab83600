import { patch } from '../api/client.js';
import { memberName } from '../api/resources.js';
import type { Member } from '../api/types.js';
import { useAction } from '../components/hooks.js';
import { ErrorBox, TableWrap } from '../components/ui.js';

const ORG_ROLES = ['org:owner', 'org:admin', 'org:member'] as const;

/**
 * Organization roles and disabling, in place. Only organization owners may change them (the
 * server refuses anyone else, and the refusal is shown); disabling ends the member's sessions.
 */
export function OrgMembers({ members, onSaved }: { members: Member[]; onSaved: () => void }) {
  const action = useAction();
  const save = async (m: Member, change: { role?: string; disabled?: boolean }) => {
    const saved = await action.run(() => patch(`/organization/members/${encodeURIComponent(m.id)}`, change));
    if (saved !== undefined) onSaved();
  };
  return (
    <>
      <ErrorBox error={action.error} />
      <TableWrap label="List of members">
        <table>
          <thead>
            <tr>
              <th scope="col">Member</th>
              <th scope="col">Organization role</th>
              <th scope="col">Disabled</th>
            </tr>
          </thead>
          <tbody>
            {members.map((m) => (
              <tr key={m.id}>
                <td>{memberName(m)}</td>
                <td>
                  <select
                    aria-label={`Organization role of ${memberName(m)}`}
                    value={m.role}
                    disabled={action.busy}
                    onChange={(e) => void save(m, { role: e.currentTarget.value })}
                  >
                    {ORG_ROLES.map((r) => (
                      <option key={r} value={r}>
                        {r.slice('org:'.length)}
                      </option>
                    ))}
                  </select>
                </td>
                <td>
                  <input
                    type="checkbox"
                    aria-label={`Disable ${memberName(m)}`}
                    checked={m.disabled === true}
                    disabled={action.busy}
                    onChange={(e) => void save(m, { disabled: e.currentTarget.checked })}
                  />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableWrap>
    </>
  );
}
