import { patch } from '../api/client.js';
import { useAction } from '../components/hooks.js';
import { ErrorBox } from '../components/ui.js';

const ROLES = ['admin', 'member', 'viewer'] as const;

/**
 * A member's role in one workspace, changed in place. The server decides who may change it
 * (workspace admins and organization owners and admins); a refusal is shown next to the control.
 */
export function MemberRole(props: {
  workspaceId: string;
  userId: string;
  name: string;
  role: string;
  onSaved: () => void;
}) {
  const action = useAction();
  const change = async (role: string) => {
    const saved = await action.run(() =>
      patch(`/workspaces/${props.workspaceId}/members/${encodeURIComponent(props.userId)}`, { role }),
    );
    if (saved !== undefined) props.onSaved();
  };
  return (
    <>
      <select
        aria-label={`Role of ${props.name}`}
        value={props.role}
        disabled={action.busy}
        onChange={(e) => void change(e.currentTarget.value)}
      >
        {ROLES.map((r) => (
          <option key={r} value={r}>
            {r}
          </option>
        ))}
      </select>
      <ErrorBox error={action.error} />
    </>
  );
}
