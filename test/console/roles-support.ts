// Fixtures of the console-role tests: one team workspace and a person per role, each with a live
// console session opened the way the SSO callback opens it (the browser test walks the redirects).
import assert from 'node:assert/strict';
import type { GatewayHarness } from '../support/gateway.js';
import { call as serverCall } from '../support/server.js';
import { asBrowser, type Browser } from './support.js';

export const PERSONAS = ['owner', 'admin', 'wsadmin', 'member', 'viewer', 'outsider'] as const;
export type Persona = (typeof PERSONAS)[number];

const ORG_ROLE: Record<Persona, string> = {
  owner: 'org:owner',
  admin: 'org:admin',
  wsadmin: 'org:member',
  member: 'org:member',
  viewer: 'org:member',
  outsider: 'org:member',
};
const TEAM_ROLE: Partial<Record<Persona, string>> = { wsadmin: 'admin', member: 'member', viewer: 'viewer' };

export interface TeamFixture {
  teamId: string;
  ids: Record<Persona, string>;
  emails: Record<Persona, string>;
}

/** A management-key call of the test's setup; fails the test unless it succeeds. */
export async function mgmt<T = Record<string, unknown>>(
  gw: GatewayHarness,
  method: string,
  path: string,
  body?: unknown,
): Promise<T> {
  const res = await serverCall<T>(gw.server, method, path, { token: gw.server.managementToken, body });
  assert.ok(res.status < 300, `${method} ${path} answered ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body;
}

/** The `team` workspace and one member per persona with their organization and team roles. */
export async function createTeam(gw: GatewayHarness, domain = 'example.test'): Promise<TeamFixture> {
  const team = await mgmt<{ data: { id: string } }>(gw, 'POST', '/workspaces', { name: 'Team', slug: 'team' });
  const ids = {} as Record<Persona, string>;
  const emails = {} as Record<Persona, string>;
  for (const p of PERSONAS) {
    emails[p] = `${p}@${domain}`;
    const created = await mgmt<{ data: { id: string } }>(gw, 'POST', '/organization/members', {
      email: emails[p],
      first_name: p,
      role: ORG_ROLE[p],
    });
    ids[p] = created.data.id;
    const role = TEAM_ROLE[p];
    if (role !== undefined) await mgmt(gw, 'PATCH', `/workspaces/team/members/${ids[p]}`, { role });
  }
  return { teamId: team.data.id, ids, emails };
}

/** A console session of one member, as the SSO callback opens it. */
export async function sessionOf(gw: GatewayHarness, memberId: string): Promise<Browser> {
  const services = gw.server.running.services;
  const member = await services.store.members.findById(memberId);
  assert.ok(member !== null);
  const signedIn = await services.consoleSessions.signInMember(member);
  return { cookie: `switchyard_session=${signedIn.token}`, csrf: signedIn.csrfToken };
}

export const call = asBrowser;
