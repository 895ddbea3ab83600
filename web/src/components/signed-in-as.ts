import type { SessionInfo } from '../api/session.js';

/** The header's line: the person and their organization role, or the management key (break-glass). */
export function signedInAs(session: SessionInfo): string {
  const { person, key } = session;
  if (person !== null) {
    const who = person.name === null ? person.email : `${person.name} (${person.email})`;
    return person.org_role === null ? `Signed in as ${who}` : `Signed in as ${who}, organization ${person.org_role}`;
  }
  return key === null ? '' : `Signed in with “${key.name}” (${key.label})`;
}
