import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { dialects } from '../support/server.js';
import { startGateway, type GatewayHarness } from '../support/gateway.js';
import type { Browser } from './support.js';
import { call, createTeam, mgmt, PERSONAS, sessionOf, type Persona, type TeamFixture } from './roles-support.js';

/**
 * What each role may call, written from the table in docs/console.md (not from the code's table):
 * the least role a route needs. `member` routes on a key here name a key the member did not
 * create, so a workspace member is refused there (their own keys are tested below).
 */
type Need = 'owner' | 'org-admin' | 'ws-admin' | 'ws-member' | 'ws-viewer' | 'ws-usage' | 'signed-in' | 'nobody';
const NEEDS: Record<string, Need> = {
  'GET /organization/members': 'signed-in',
  'POST /organization/members': 'org-admin',
  'PATCH /organization/members/:id': 'owner',
  'POST /catalog/reload': 'org-admin',
  'GET /audit-log': 'org-admin',
  'GET /metrics': 'org-admin',
  'GET /analytics/usage': 'org-admin',
  'GET /analytics/limits': 'org-admin',
  'GET /guardrails/assignments/keys': 'org-admin',
  'GET /guardrails/assignments/members': 'org-admin',
  'GET /models': 'signed-in',
  'GET /models/:author/:slug/endpoints': 'signed-in',
  'GET /embeddings/models': 'signed-in',
  'GET /providers': 'signed-in',
  'GET /analytics/endpoints': 'signed-in',
  'POST /guardrails/scan': 'signed-in',
  'POST /guardrails/validate-pattern': 'signed-in',
  'GET /key': 'nobody',
  'GET /workspaces': 'signed-in',
  'POST /workspaces': 'org-admin',
  'GET /workspaces/:id': 'ws-viewer',
  'PATCH /workspaces/:id': 'ws-admin',
  'DELETE /workspaces/:id': 'org-admin',
  'GET /workspaces/:id/members': 'ws-viewer',
  'POST /workspaces/:id/members/add': 'ws-admin',
  'POST /workspaces/:id/members/remove': 'ws-admin',
  'PATCH /workspaces/:id/members/:user_id': 'ws-admin',
  'GET /keys': 'ws-viewer',
  'POST /keys': 'ws-member',
  'GET /keys/:hash': 'ws-viewer',
  'PATCH /keys/:hash': 'ws-admin',
  'DELETE /keys/:hash': 'ws-admin',
  'POST /keys/:hash/rotate': 'ws-admin',
  'GET /guardrails': 'ws-viewer',
  'POST /guardrails': 'ws-admin',
  'GET /guardrails/:id': 'ws-viewer',
  'PATCH /guardrails/:id': 'ws-admin',
  'DELETE /guardrails/:id': 'ws-admin',
  'POST /guardrails/:id/scan': 'ws-viewer',
  'GET /guardrails/:id/assignments/keys': 'ws-viewer',
  'POST /guardrails/:id/assignments/keys': 'ws-admin',
  'POST /guardrails/:id/assignments/keys/remove': 'ws-admin',
  'GET /guardrails/:id/assignments/members': 'ws-viewer',
  'POST /guardrails/:id/assignments/members': 'org-admin',
  'POST /guardrails/:id/assignments/members/remove': 'org-admin',
  'GET /presets': 'ws-viewer',
  'GET /presets/:slug': 'ws-viewer',
  'GET /presets/:slug/versions': 'ws-viewer',
  'GET /presets/:slug/versions/:version': 'ws-viewer',
  'POST /presets/:slug/chat/completions': 'ws-admin',
  'POST /presets/:slug/responses': 'ws-admin',
  'POST /presets/:slug/messages': 'ws-admin',
  'PATCH /presets/:slug': 'ws-admin',
  // Usage: a workspace member reads only their own keys' (not asked for here: refused).
  'GET /activity': 'ws-usage',
  'GET /generations': 'ws-usage',
  'GET /generations/:id': 'ws-usage',
};

const ALLOWED: Record<Persona, Need[]> = {
  owner: ['owner', 'org-admin', 'ws-admin', 'ws-member', 'ws-viewer', 'ws-usage', 'signed-in'],
  admin: ['org-admin', 'ws-admin', 'ws-member', 'ws-viewer', 'ws-usage', 'signed-in'],
  wsadmin: ['ws-admin', 'ws-member', 'ws-viewer', 'ws-usage', 'signed-in'],
  member: ['ws-member', 'ws-viewer', 'signed-in'],
  viewer: ['ws-viewer', 'ws-usage', 'signed-in'],
  outsider: ['signed-in'],
};

interface Targets {
  team: TeamFixture;
  othersKey: string;
  guardrailId: string;
  generationId: string;
}

describe('console roles: every session route × every role', () => {
  for (const dialect of dialects()) {
    describe(dialect, () => {
      let gw: GatewayHarness;
      let t: Targets;
      const sessions = {} as Record<Persona, Browser>;

      const freshKey = async (creator: string) =>
        (
          await mgmt<{ data: { hash: string } }>(gw, 'POST', '/keys', {
            name: `k-${Math.random()}`,
            workspace_id: 'team',
            creator_user_id: creator,
          })
        ).data.hash;
      const freshGuardrail = async () =>
        (
          await mgmt<{ data: { id: string } }>(gw, 'POST', '/guardrails', {
            name: `g-${Math.random()}`,
            workspace_id: 'team',
          })
        ).data.id;

      before(async () => {
        gw = await startGateway({ dialect });
        const team = await createTeam(gw);
        const teamKey = await mgmt<{ key: string }>(gw, 'POST', '/keys', {
          name: 'team-caller',
          workspace_id: 'team',
          creator_user_id: team.ids.wsadmin,
        });
        const completion = await fetch(`${gw.server.api}/chat/completions`, {
          method: 'POST',
          headers: { authorization: `Bearer ${teamKey.key}`, 'content-type': 'application/json' },
          body: JSON.stringify({ model: 'openai/gpt-test', messages: [{ role: 'user', content: 'hi' }] }),
        });
        const generationId = ((await completion.json()) as { id: string }).id;
        for (let i = 0; i < 100; i += 1) {
          const found = await fetch(`${gw.server.api}/generations/${generationId}`, {
            headers: { authorization: `Bearer ${gw.server.managementToken}` },
          });
          if (found.status === 200) break;
          await new Promise((r) => setTimeout(r, 50));
        }
        await mgmt(gw, 'POST', '/presets/team-preset/chat/completions?workspace_id=team', { model: 'openai/gpt-test' });
        t = { team, othersKey: await freshKey(team.ids.wsadmin), guardrailId: await freshGuardrail(), generationId };
        for (const p of PERSONAS) sessions[p] = await sessionOf(gw, t.team.ids[p]);
      });
      after(() => gw.close());

      /** A concrete path for a route; destructive routes get a fresh target each time. */
      const pathOf = async (route: string): Promise<string> => {
        const [method = '', pattern = ''] = route.split(' ');
        const destructive = method === 'DELETE' || pattern.endsWith('/rotate');
        let path = pattern;
        if (pattern.startsWith('/workspaces/:id'))
          path = path.replace(
            ':id',
            destructive
              ? (
                  await mgmt<{ data: { id: string } }>(gw, 'POST', '/workspaces', {
                    name: 'W',
                    slug: `w-${Date.now()}-${Math.floor(Math.random() * 1e6)}`,
                  })
                ).data.id
              : 'team',
          );
        if (pattern.startsWith('/organization/members/:id')) path = path.replace(':id', t.team.ids.outsider);
        if (pattern.startsWith('/keys/:hash'))
          path = path.replace(':hash', destructive ? await freshKey(t.team.ids.wsadmin) : t.othersKey);
        if (pattern.startsWith('/guardrails/:id'))
          path = path.replace(':id', destructive ? await freshGuardrail() : t.guardrailId);
        if (pattern.startsWith('/generations/:id')) path = path.replace(':id', t.generationId);
        path = path
          .replace(':user_id', t.team.ids.outsider)
          .replace('/presets/:slug', '/presets/team-preset')
          .replace(':version', '1')
          .replace('/models/:author/:slug', '/models/openai/gpt-test');
        return `${path}?workspace_id=team`;
      };

      it('knows every route a console session can reach (a new route must be added to the table)', () => {
        const routes = [...gw.server.running.app.sessionRoutes].sort();
        assert.deepEqual(
          routes.filter((r) => NEEDS[r] === undefined),
          [],
          'routes missing from the role table',
        );
        assert.deepEqual(
          Object.keys(NEEDS).filter((r) => !routes.includes(r)),
          [],
          'table rows for routes that do not exist',
        );
      });

      for (const persona of PERSONAS)
        it(`answers 403 to a ${persona} exactly where the table says no`, async () => {
          const wrong: string[] = [];
          for (const route of [...gw.server.running.app.sessionRoutes].sort()) {
            const need = NEEDS[route];
            if (need === undefined) continue;
            const method = route.split(' ')[0] ?? 'GET';
            const body = method === 'GET' || method === 'DELETE' ? undefined : { workspace_id: 'team' };
            const res = await call<{ error?: { message: string } }>(
              gw.server,
              sessions[persona],
              method,
              await pathOf(route),
              { body },
            );
            const allowed = ALLOWED[persona].includes(need);
            if (allowed && res.status === 403) wrong.push(`${route}: 403 (${res.body.error?.message}) but allowed`);
            if (!allowed && res.status !== 403) wrong.push(`${route}: ${res.status} but refused by the table`);
          }
          assert.deepEqual(wrong, []);
        });

      it('lets a workspace member manage the keys they created, and no one else’s', async () => {
        const member = sessions.member;
        const created = await call<{ data: { hash: string } }>(gw.server, member, 'POST', '/keys', {
          body: { name: 'mine', workspace_id: 'team' },
        });
        assert.equal(created.status, 201);
        const own = created.body.data.hash;
        assert.equal(
          (await call(gw.server, member, 'PATCH', `/keys/${own}`, { body: { name: 'mine-2' } })).status,
          200,
        );
        assert.equal((await call(gw.server, member, 'POST', `/keys/${own}/rotate`)).status, 200);
        const forOther = await call(gw.server, member, 'POST', '/keys', {
          body: { name: 'theirs', workspace_id: 'team', creator_user_id: t.team.ids.wsadmin },
        });
        assert.equal(forOther.status, 403);
        assert.equal((await call(gw.server, member, 'DELETE', `/keys/${t.othersKey}`)).status, 403);
        assert.equal((await call(gw.server, member, 'DELETE', `/keys/${own}`)).status, 200);
        const audit = await mgmt<{ data: { action: string; actor: { type: string; member_id: string | null } }[] }>(
          gw,
          'GET',
          `/audit-log?target_id=${own}`,
        );
        assert.ok(
          audit.data.length > 0 &&
            audit.data.every((r) => r.actor.type === 'console' && r.actor.member_id === t.team.ids.member),
        );
      });

      it('lets a workspace member read the usage of their own keys only', async () => {
        const member = sessions.member;
        const mine = await call<{ data: { hash: string }; key: string }>(gw.server, member, 'POST', '/keys', {
          body: { name: 'usage-mine', workspace_id: 'team' },
        });
        assert.equal(mine.status, 201);
        const completion = await fetch(`${gw.server.api}/chat/completions`, {
          method: 'POST',
          headers: { authorization: `Bearer ${mine.body.key}`, 'content-type': 'application/json' },
          body: JSON.stringify({ model: 'openai/gpt-test', messages: [{ role: 'user', content: 'mine' }] }),
        });
        const ownGeneration = ((await completion.json()) as { id: string }).id;
        let detail = 0;
        for (let i = 0; i < 100 && detail !== 200; i += 1) {
          detail = (await call(gw.server, member, 'GET', `/generations/${ownGeneration}`)).status;
          if (detail !== 200) await new Promise((r) => setTimeout(r, 50));
        }
        assert.equal(detail, 200, 'their own generation');
        const own = `workspace_id=${t.team.teamId}&key_hash=${mine.body.data.hash}`;
        const list = await call<{ data: { id: string }[] }>(gw.server, member, 'GET', `/generations?${own}`);
        assert.equal(list.status, 200);
        assert.deepEqual(
          list.body.data.map((g) => g.id),
          [ownGeneration],
        );
        assert.equal((await call(gw.server, member, 'GET', `/activity?${own}`)).status, 200);
        const others = `workspace_id=${t.team.teamId}&key_hash=${t.othersKey}`;
        assert.equal((await call(gw.server, member, 'GET', `/generations?${others}`)).status, 403);
        assert.equal((await call(gw.server, member, 'GET', `/generations/${t.generationId}`)).status, 403);
        assert.equal((await call(gw.server, sessions.viewer, 'GET', `/generations/${t.generationId}`)).status, 200);
      });

      it('lets a workspace admin assign their guardrail to keys of their workspace only', async () => {
        const teamKey = await freshKey(t.team.ids.member);
        const elsewhere = (await mgmt<{ data: { hash: string } }>(gw, 'POST', '/keys', { name: 'default-ws key' })).data
          .hash;
        const path = `/guardrails/${t.guardrailId}/assignments/keys`;
        const own = await call(gw.server, sessions.wsadmin, 'POST', path, { body: { key_hashes: [teamKey] } });
        assert.equal(own.status, 200);
        const across = await call(gw.server, sessions.wsadmin, 'POST', path, {
          body: { key_hashes: [teamKey, elsewhere] },
        });
        assert.equal(across.status, 403);
        const byAdmin = await call(gw.server, sessions.admin, 'POST', path, { body: { key_hashes: [elsewhere] } });
        assert.equal(byAdmin.status, 200);
      });

      it('narrows unfiltered lists to the default workspace for a person without an organization role', async () => {
        // A viewer of the default workspace (a role set there overrides the implicit `member`).
        await mgmt(gw, 'PATCH', `/workspaces/default/members/${t.team.ids.outsider}`, { role: 'viewer' });
        const outsider = await call<{ data: { id: string }[] }>(gw.server, sessions.outsider, 'GET', '/generations');
        assert.equal(outsider.status, 200);
        assert.ok(!outsider.body.data.some((g) => g.id === t.generationId), 'a team generation leaked to an outsider');
        const viewer = await call<{ data: { id: string }[] }>(
          gw.server,
          sessions.viewer,
          'GET',
          `/generations?workspace_id=${t.team.teamId}`,
        );
        assert.ok(viewer.body.data.some((g) => g.id === t.generationId));
        const admin = await call<{ data: { id: string }[] }>(gw.server, sessions.admin, 'GET', '/generations');
        assert.ok(
          admin.body.data.some((g) => g.id === t.generationId),
          'an org admin sees every workspace',
        );
      });

      it('ends a disabled member’s sessions at once, and the owner alone sets organization roles', async () => {
        const disabledBy = await call(
          gw.server,
          sessions.admin,
          'PATCH',
          `/organization/members/${t.team.ids.outsider}`,
          {
            body: { disabled: true },
          },
        );
        assert.equal(disabledBy.status, 403);
        const res = await call<{ data: { disabled: boolean } }>(
          gw.server,
          sessions.owner,
          'PATCH',
          `/organization/members/${t.team.ids.outsider}`,
          {
            body: { disabled: true },
          },
        );
        assert.equal(res.status, 200);
        assert.equal(res.body.data.disabled, true);
        assert.equal((await call(gw.server, sessions.outsider, 'GET', '/workspaces')).status, 401);
        const member = await gw.server.running.services.store.members.findById(t.team.ids.outsider);
        assert.ok(member !== null);
        await assert.rejects(gw.server.running.services.consoleSessions.signInMember(member), /disabled/);
      });
    });
  }
});
