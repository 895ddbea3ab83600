export type OrgRole = 'org:admin' | 'org:member';

export interface MemberRecord {
  id: string;
  email: string;
  firstName: string | null;
  lastName: string | null;
  role: OrgRole;
  createdAt: string;
}

export interface MemberRepository {
  insert(member: MemberRecord): Promise<MemberRecord>;
  findById(id: string): Promise<MemberRecord | null>;
  findByEmail(email: string): Promise<MemberRecord | null>;
  /** Ids of `ids` that exist, in no particular order. */
  existing(ids: string[]): Promise<string[]>;
  list(page: { offset: number; limit: number }): Promise<{ rows: MemberRecord[]; total: number }>;
}
