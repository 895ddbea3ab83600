import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { SsoSignIn, type IdentityClaims, type SsoPolicy } from '../../src/domain/console/sso.js';
import { dialects, startTestServer, type TestServer } from '../support/server.js';

const claims = (email: string, groups: string[] = [], verified = true): IdentityClaims => ({
  subject: `sub-${email}`,
  email,
  emailVerified: verified,
  givenName: 'Given',
  familyName: 'Family',
  groups,
});

describe('single sign-on: matching, provisioning and the group map', () => {
  for (const dialect of dialects()) {
    describe(dialect, () => {
      let server: TestServer;
      let teamId: string;
      const signInWith = (policy: Partial<SsoPolicy>) => {
        const services = server.running.services;
        return new SsoSignIn({
          members: services.store.members,
          workspaces: services.store.workspaces,
          memberService: services.members,
          workspaceService: services.workspaces,
          audit: services.store.audit,
          clock: services.clock,
          policy: {
            allowedDomains: [],
            roleMap: new Map(),
            provision: false,
            defaultRole: { workspace: 'default', role: 'viewer' },
            ...policy,
          },
        });
      };
      const rolesOf = async (memberId: string) =>
        new Map((await server.running.services.store.workspaces.rolesOf(memberId)).map((r) => [r.workspaceId, r.role]));

      before(async () => {
        server = await startTestServer({ dialect });
        const res = await fetch(`${server.api}/workspaces`, {
          method: 'POST',
          headers: { authorization: `Bearer ${server.managementToken}`, 'content-type': 'application/json' },
          body: JSON.stringify({ name: 'Team', slug: 'team' }),
        });
        teamId = ((await res.json()) as { data: { id: string } }).data.id;
      });
      after(() => server.close());

      it('provisions an unknown verified email only when asked, with the default role', async () => {
        const off = await signInWith({}).resolve(claims('new@corp.test'));
        assert.equal(off.ok, false);
        const on = await signInWith({ provision: true, defaultRole: { workspace: 'team', role: 'member' } }).resolve(
          claims('New@Corp.test'),
        );
        assert.ok(on.ok);
        assert.equal(on.member.email, 'new@corp.test');
        assert.equal(on.member.role, 'org:member');
        assert.equal((await rolesOf(on.member.id)).get(teamId), 'member');
        const again = await signInWith({ provision: true }).resolve(claims('new@corp.test'));
        assert.ok(again.ok && again.member.id === on.member.id, 'the second sign-in finds the same member');
      });

      it('refuses other domains and unverified emails, and provisions neither', async () => {
        const policy = { provision: true, allowedDomains: ['corp.test'] };
        const other = await signInWith(policy).resolve(claims('someone@elsewhere.test'));
        assert.ok(!other.ok && other.reason.includes('corp.test'));
        const unverified = await signInWith(policy).resolve(claims('unverified@corp.test', [], false));
        assert.ok(!unverified.ok && unverified.reason.includes('not verified'));
        assert.equal(await server.running.services.store.members.findByEmail('someone@elsewhere.test'), null);
        assert.equal(await server.running.services.store.members.findByEmail('unverified@corp.test'), null);
      });

      it('makes the organization role follow the groups at every sign-in, and grants workspace roles', async () => {
        const roleMap = new Map([
          ['leads', [{ org: 'admin' as const }]],
          ['team-a', [{ workspace: 'team', role: 'viewer' as const }]],
          ['team-b', [{ workspace: 'team', role: 'admin' as const }]],
        ]);
        const sso = signInWith({ roleMap, provision: true });
        const first = await sso.resolve(claims('lead@corp.test', ['leads', 'team-a', 'team-b', 'unmapped']));
        assert.ok(first.ok);
        assert.equal(first.member.role, 'org:admin');
        assert.equal((await rolesOf(first.member.id)).get(teamId), 'admin', 'the highest workspace role of the groups');
        const later = await sso.resolve(claims('lead@corp.test', ['team-a']));
        assert.ok(later.ok);
        assert.equal(later.member.role, 'org:member', 'out of the leads group: no longer an organization admin');
        assert.equal((await rolesOf(later.member.id)).get(teamId), 'viewer');
      });
    });
  }
});
