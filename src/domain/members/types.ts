/** `org:owner` and `org:admin` hold organization-wide console roles; `org:member` only workspace roles. */
export type OrgRole = 'org:owner' | 'org:admin' | 'org:member';

export const ORG_ROLES: readonly OrgRole[] = ['org:owner', 'org:admin', 'org:member'];

export interface MemberRecord {
  id: string;
  email: string;
  firstName: string | null;
  lastName: string | null;
  role: OrgRole;
  createdAt: string;
  /** When the member was disabled (no sign-in; their console sessions end), or null. */
  disabledAt: string | null;
}

export interface MemberPatch {
  role?: OrgRole;
  disabledAt?: string | null;
}

export interface MemberRepository {
  insert(member: Omit<MemberRecord, 'disabledAt'> & { disabledAt?: string | null }): Promise<MemberRecord>;
  findById(id: string): Promise<MemberRecord | null>;
  findByEmail(email: string): Promise<MemberRecord | null>;
  /** Ids of `ids` that exist, in no particular order. */
  existing(ids: string[]): Promise<string[]>;
  list(page: { offset: number; limit: number }): Promise<{ rows: MemberRecord[]; total: number }>;
  update(id: string, patch: MemberPatch): Promise<MemberRecord | null>;
}
