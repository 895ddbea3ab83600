import { errors } from '../../errors/index.js';
import type { Clock } from '../common/clock.js';
import { newUserId } from '../common/ids.js';
import type { Page, PageResult } from '../common/page.js';
import { recordAudit } from '../audit/record.js';
import type { AuditRepository, WriteContext } from '../audit/types.js';
import type { MemberPatch, MemberRecord, MemberRepository, OrgRole } from './types.js';

export interface NewMemberInput {
  email: string;
  firstName?: string | null;
  lastName?: string | null;
  role?: OrgRole;
}

export class MemberService {
  constructor(
    private readonly deps: {
      members: MemberRepository;
      clock: Clock;
      /** Runs `fn` in one transaction: the insert and its audit record commit together. */
      transaction<T>(fn: (repos: { members: MemberRepository; audit: AuditRepository }) => Promise<T>): Promise<T>;
    },
  ) {}

  async add(input: NewMemberInput, ctx: WriteContext): Promise<MemberRecord> {
    const email = input.email.trim().toLowerCase();
    if ((await this.deps.members.findByEmail(email)) !== null) {
      throw errors.conflict(`A member with email ${email} already exists`, { field: 'email' });
    }
    return this.deps.transaction(async (repos) => {
      const member = await repos.members.insert({
        id: newUserId(),
        email,
        firstName: input.firstName ?? null,
        lastName: input.lastName ?? null,
        role: input.role ?? 'org:member',
        createdAt: this.deps.clock.now().toISOString(),
      });
      const changes = { email, first_name: member.firstName, last_name: member.lastName, role: member.role };
      await recordAudit(
        repos.audit,
        { action: 'member.create', targetType: 'member', targetId: member.id, changes },
        { ctx, clock: this.deps.clock },
      );
      return member;
    });
  }

  /** Sets a member's organization role and/or disables (or re-enables) them; 404 for an unknown member. */
  async update(id: string, change: { role?: OrgRole; disabled?: boolean }, ctx: WriteContext): Promise<MemberRecord> {
    const before = await this.deps.members.findById(id);
    if (before === null) throw errors.notFound(`No member ${id}`);
    const patch: MemberPatch = {};
    if (change.role !== undefined) patch.role = change.role;
    if (change.disabled !== undefined && change.disabled !== (before.disabledAt !== null))
      patch.disabledAt = change.disabled ? this.deps.clock.now().toISOString() : null;
    return this.deps.transaction(async (repos) => {
      const member = await repos.members.update(id, patch);
      if (member === null) throw errors.notFound(`No member ${id}`);
      await recordAudit(
        repos.audit,
        { action: 'member.update', targetType: 'member', targetId: id, changes: { ...change } },
        { ctx, clock: this.deps.clock },
      );
      return member;
    });
  }

  list(page: Page): Promise<PageResult<MemberRecord>> {
    return this.deps.members.list(page);
  }
}
