import type { ConsoleSession } from '../../domain/console/sessions.js';
import type { Person } from '../../domain/console/person.js';

function presentPerson(person: Person) {
  const { member } = person;
  const name = [member.firstName, member.lastName].filter((p) => p !== null && p !== '').join(' ');
  return {
    member_id: member.id,
    email: member.email,
    name: name === '' ? null : name,
    org_role: person.org,
    default_workspace_id: person.defaultWorkspaceId,
    workspace_roles: [...person.workspaces].map(([workspaceId, role]) => ({ workspace_id: workspaceId, role })),
  };
}

/** `GET/POST /console/session`: the anti-CSRF token, the key or person signed in, and the expiry. */
export function presentSession(session: ConsoleSession, idleMs: number) {
  const { key, person } = session;
  return {
    data: {
      csrf_token: session.csrfToken,
      key: key === null ? null : { hash: key.hash, name: key.name, label: key.label, workspace_id: key.workspaceId },
      person: person === null ? null : presentPerson(person),
      idle_timeout_ms: idleMs,
      expires_at: session.expiresAt,
    },
  };
}
