import type { MemberRecord } from '../members/types.js';
import type { WorkspaceRole } from '../workspaces/types.js';

/** Organization-wide console roles: `owner` may do everything; `admin` everything but org roles. */
export type OrgConsoleRole = 'owner' | 'admin';

/** A member signed in to the console (single sign-on) with the roles they hold right now. */
export interface Person {
  member: MemberRecord;
  org: OrgConsoleRole | null;
  /** Explicit workspace roles by workspace id. */
  workspaces: ReadonlyMap<string, WorkspaceRole>;
  defaultWorkspaceId: string;
}

export function orgConsoleRole(member: MemberRecord): OrgConsoleRole | null {
  if (member.role === 'org:owner') return 'owner';
  if (member.role === 'org:admin') return 'admin';
  return null;
}

const RANK: Record<WorkspaceRole, number> = { viewer: 1, member: 2, admin: 3 };

export const atLeast = (role: WorkspaceRole | null, needed: WorkspaceRole): boolean =>
  role !== null && RANK[role] >= RANK[needed];

/**
 * A person's role in one workspace: organization owners and admins are admins everywhere; else
 * the explicit membership's role; else, in the default workspace (to which every member belongs),
 * `member`; else none.
 */
export function roleIn(person: Person, workspaceId: string): WorkspaceRole | null {
  if (person.org !== null) return 'admin';
  const explicit = person.workspaces.get(workspaceId);
  if (explicit !== undefined) return explicit;
  return workspaceId === person.defaultWorkspaceId ? 'member' : null;
}

export interface PersonSources {
  rolesOf(userId: string): Promise<{ workspaceId: string; role: WorkspaceRole }[]>;
  defaultWorkspaceId(): Promise<string>;
}

export async function loadPerson(member: MemberRecord, sources: PersonSources): Promise<Person> {
  const [roles, defaultWorkspaceId] = await Promise.all([sources.rolesOf(member.id), sources.defaultWorkspaceId()]);
  return {
    member,
    org: orgConsoleRole(member),
    workspaces: new Map(roles.map((r) => [r.workspaceId, r.role])),
    defaultWorkspaceId,
  };
}

/** The default workspace's id, looked up once (it is created at start and never changes). */
export function defaultWorkspaceIdOf(workspaces: {
  findDefault(): Promise<{ id: string } | null>;
}): () => Promise<string> {
  let cached: string | null = null;
  return async () => {
    if (cached !== null) return cached;
    const found = await workspaces.findDefault();
    if (found === null) throw new Error('The default workspace is missing');
    cached = found.id;
    return cached;
  };
}
