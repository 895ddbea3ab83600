import { recordAudit, asSystem } from '../audit/record.js';
import type { AuditRepository, WriteContext } from '../audit/types.js';
import type { Clock } from '../common/clock.js';
import type { MemberService } from '../members/service.js';
import type { MemberRecord, MemberRepository, OrgRole } from '../members/types.js';
import type { WorkspaceService } from '../workspaces/service.js';
import type { WorkspaceRepository, WorkspaceRole } from '../workspaces/types.js';
import { atLeast } from './person.js';

/** A role granted by the IdP: organization-wide, or in one workspace (by slug). */
export type GrantedRole = { org: 'owner' | 'admin' } | { workspace: string; role: WorkspaceRole };

/** What the IdP's ID token (and userinfo) said about the person. */
export interface IdentityClaims {
  subject: string;
  email: string | null;
  emailVerified: boolean;
  givenName: string | null;
  familyName: string | null;
  groups: string[];
}

export interface SsoPolicy {
  allowedDomains: string[];
  roleMap: Map<string, GrantedRole[]>;
  provision: boolean;
  defaultRole: GrantedRole;
}

export interface SsoDeps {
  members: MemberRepository;
  workspaces: Pick<WorkspaceRepository, 'findByIdOrSlug' | 'rolesOf'>;
  memberService: Pick<MemberService, 'add' | 'update'>;
  workspaceService: Pick<WorkspaceService, 'setMemberRole'>;
  audit: AuditRepository;
  clock: Clock;
  policy: SsoPolicy;
}

export type SsoOutcome =
  { ok: true; member: MemberRecord } | { ok: false; reason: string; member: MemberRecord | null };

const ORG_RANK: Record<OrgRole, number> = { 'org:member': 0, 'org:admin': 1, 'org:owner': 2 };

/**
 * Who a person signing in through the IdP is: the organization member with the same verified
 * email (or one created on first sign-in when provisioning is on). The roles the IdP groups map
 * to are applied at every sign-in: the organization role follows the groups whenever the map
 * names any organization role; workspace roles named by the person's groups are set (roles set in
 * the console for other workspaces are left as they are). Every sign-in and refusal is audited.
 */
export class SsoSignIn {
  constructor(private readonly deps: SsoDeps) {}

  async resolve(claims: IdentityClaims): Promise<SsoOutcome> {
    const outcome = await this.decide(claims);
    const actor: WriteContext = { actor: { kind: 'console', memberId: outcome.member?.id ?? null, keyHash: null } };
    await recordAudit(
      this.deps.audit,
      {
        action: outcome.ok ? 'console.sign_in' : 'console.sign_in_failed',
        targetType: 'member',
        targetId: outcome.member?.id ?? claims.email ?? claims.subject,
        changes: { method: 'sso', email: claims.email, ...(outcome.ok ? {} : { reason: outcome.reason }) },
      },
      { ctx: actor, clock: this.deps.clock },
    );
    return outcome;
  }

  private async decide(claims: IdentityClaims): Promise<SsoOutcome> {
    const { policy } = this.deps;
    const refuse = (reason: string, member: MemberRecord | null = null): SsoOutcome => ({ ok: false, reason, member });
    if (claims.email === null) return refuse('Your identity provider did not share an email address.');
    const email = claims.email.trim().toLowerCase();
    if (!claims.emailVerified) return refuse(`Your identity provider has not verified the email address ${email}.`);
    const domain = email.slice(email.lastIndexOf('@') + 1);
    if (policy.allowedDomains.length > 0 && !policy.allowedDomains.includes(domain))
      return refuse(`Sign-in is limited to addresses at ${policy.allowedDomains.join(', ')}; ${email} is not one.`);
    let member = await this.deps.members.findByEmail(email);
    if (member === null) {
      if (!policy.provision)
        return refuse(
          `No member of this organization has the email address ${email}. Ask an administrator to add you.`,
        );
      member = await this.provision(email, claims);
    }
    if (member.disabledAt !== null) return refuse(`The member ${email} is disabled.`, member);
    return { ok: true, member: await this.applyGroups(member, claims.groups) };
  }

  private async provision(email: string, claims: IdentityClaims): Promise<MemberRecord> {
    const granted = this.deps.policy.defaultRole;
    const role: OrgRole = 'org' in granted ? `org:${granted.org}` : 'org:member';
    const member = await this.deps.memberService.add(
      { email, firstName: claims.givenName, lastName: claims.familyName, role },
      asSystem,
    );
    if ('workspace' in granted) await this.grantWorkspace(member, granted.workspace, granted.role);
    return member;
  }

  private async applyGroups(member: MemberRecord, groups: string[]): Promise<MemberRecord> {
    const { roleMap } = this.deps.policy;
    if (roleMap.size === 0) return member;
    const granted = groups.flatMap((g) => roleMap.get(g) ?? []);
    const mapsOrgRoles = [...roleMap.values()].some((roles) => roles.some((r) => 'org' in r));
    let current = member;
    if (mapsOrgRoles) {
      const role = granted.reduce<OrgRole>((best, r) => {
        const candidate: OrgRole = 'org' in r ? `org:${r.org}` : 'org:member';
        return ORG_RANK[candidate] > ORG_RANK[best] ? candidate : best;
      }, 'org:member');
      if (role !== member.role) current = await this.deps.memberService.update(member.id, { role }, asSystem);
    }
    const best = new Map<string, WorkspaceRole>();
    for (const r of granted)
      if ('workspace' in r && !atLeast(best.get(r.workspace) ?? null, r.role)) best.set(r.workspace, r.role);
    for (const [workspace, role] of best) await this.grantWorkspace(current, workspace, role);
    return current;
  }

  /** Sets a workspace role unless the member already holds exactly it (an unknown slug is skipped). */
  private async grantWorkspace(member: MemberRecord, slug: string, role: WorkspaceRole): Promise<void> {
    const workspace = await this.deps.workspaces.findByIdOrSlug(slug);
    if (workspace === null) return;
    const held = await this.deps.workspaces.rolesOf(member.id);
    if (held.some((h) => h.workspaceId === workspace.id && h.role === role)) return;
    await this.deps.workspaceService.setMemberRole(workspace.id, member.id, role, asSystem);
  }
}
