import { errors } from '../../errors/index.js';
import type { Clock } from '../common/clock.js';
import { newUserId } from '../common/ids.js';
import type { Page, PageResult } from '../common/page.js';
import type { MemberRecord, MemberRepository, OrgRole } from './types.js';

export interface NewMemberInput {
  email: string;
  firstName?: string | null;
  lastName?: string | null;
  role?: OrgRole;
}

export class MemberService {
  constructor(private readonly deps: { members: MemberRepository; clock: Clock }) {}

  async add(input: NewMemberInput): Promise<MemberRecord> {
    const email = input.email.trim().toLowerCase();
    if ((await this.deps.members.findByEmail(email)) !== null) {
      throw errors.conflict(`A member with email ${email} already exists`, { field: 'email' });
    }
    return this.deps.members.insert({
      id: newUserId(),
      email,
      firstName: input.firstName ?? null,
      lastName: input.lastName ?? null,
      role: input.role ?? 'org:member',
      createdAt: this.deps.clock.now().toISOString(),
    });
  }

  list(page: Page): Promise<PageResult<MemberRecord>> {
    return this.deps.members.list(page);
  }
}
