import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { call, dialects, startTestServer, type TestServer } from '../support/server.js';

interface Ws {
  id: string;
  slug: string;
  name: string;
  default_guardrail_id: string;
  description: string | null;
}
type Err = { error: { code: number; message: string; metadata: Record<string, unknown> | null } };

for (const dialect of dialects()) {
  describe(`workspaces and members (${dialect})`, () => {
    let server: TestServer;
    const mgmt = () => server.managementToken;
    const addMember = async (email: string) => {
      const res = await call<{ data: { id: string } }>(server, 'POST', '/organization/members', {
        token: mgmt(),
        body: { email, first_name: 'A' },
      });
      assert.equal(res.status, 201);
      return res.body.data.id;
    };

    before(async () => {
      server = await startTestServer({ dialect });
    });
    after(() => server.close());

    it('always has a permanent default workspace', async () => {
      const res = await call<{ data: Ws[]; total_count: number }>(server, 'GET', '/workspaces', { token: mgmt() });
      assert.equal(res.status, 200);
      const def = res.body.data.find((w) => w.slug === 'default');
      assert.ok(def);
      assert.equal((await call(server, 'DELETE', '/workspaces/default', { token: mgmt() })).status, 400);
      assert.equal(
        (await call(server, 'PATCH', '/workspaces/default', { token: mgmt(), body: { slug: 'other' } })).status,
        400,
      );
    });

    it('creates, reads by uuid or slug, updates and deletes a workspace', async () => {
      const created = await call<{ data: Ws }>(server, 'POST', '/workspaces', {
        token: mgmt(),
        body: { name: 'Team A', slug: 'team-a', description: 'x' },
      });
      assert.equal(created.status, 201);
      assert.match(created.body.data.default_guardrail_id, /^[0-9a-f-]{36}$/);
      const bySlug = await call<{ data: Ws }>(server, 'GET', '/workspaces/team-a', { token: mgmt() });
      const byId = await call<{ data: Ws }>(server, 'GET', `/workspaces/${created.body.data.id}`, { token: mgmt() });
      assert.deepEqual(bySlug.body, byId.body);
      assert.equal(bySlug.body.data.default_guardrail_id, created.body.data.default_guardrail_id, 'derived, stable');
      const dup = await call<Err>(server, 'POST', '/workspaces', {
        token: mgmt(),
        body: { name: 'dup', slug: 'team-a' },
      });
      assert.equal(dup.status, 409);
      const patched = await call<{ data: Ws }>(server, 'PATCH', '/workspaces/team-a', {
        token: mgmt(),
        body: { name: 'Team A2', description: null },
      });
      assert.equal(patched.body.data.name, 'Team A2');
      assert.equal(patched.body.data.description, null);
      assert.equal(
        (await call(server, 'DELETE', `/workspaces/${created.body.data.id}`, { token: mgmt() })).status,
        200,
      );
      assert.equal((await call(server, 'GET', '/workspaces/team-a', { token: mgmt() })).status, 404);
    });

    it('validates workspace bodies', async () => {
      for (const body of [
        { name: 'x', slug: 'Bad Slug' },
        { name: '', slug: 'ok' },
        { name: 'x' },
        { name: 'x', slug: 'a'.repeat(51) },
        { name: 'x', slug: 'y', io_logging_sampling_rate: 2 },
      ]) {
        const res = await call<Err>(server, 'POST', '/workspaces', { token: mgmt(), body });
        assert.equal(res.status, 400, JSON.stringify(body));
      }
    });

    it('adds, lists and removes members; default workspace lists every member', async () => {
      const u1 = await addMember('u1@example.com');
      const u2 = await addMember('u2@example.com');
      await call(server, 'POST', '/workspaces', { token: mgmt(), body: { name: 'B', slug: 'team-b' } });
      const added = await call<{ added_count: number; data: { user_id: string; role: string }[] }>(
        server,
        'POST',
        '/workspaces/team-b/members/add',
        {
          token: mgmt(),
          body: { user_ids: [u1, u2] },
        },
      );
      assert.equal(added.status, 200);
      assert.equal(added.body.added_count, 2);
      const listed = await call<{ data: { user_id: string }[]; total_count: number }>(
        server,
        'GET',
        '/workspaces/team-b/members?limit=1',
        { token: mgmt() },
      );
      assert.equal(listed.body.total_count, 2);
      assert.equal(listed.body.data.length, 1);
      const all = await call<{ total_count: number }>(server, 'GET', '/workspaces/default/members', { token: mgmt() });
      assert.ok(all.body.total_count >= 3, 'owner plus the two members');
      const unknown = await call<Err>(server, 'POST', '/workspaces/team-b/members/add', {
        token: mgmt(),
        body: { user_ids: ['user_nope'] },
      });
      assert.equal(unknown.status, 400);
      const removed = await call<{ removed_count: number }>(server, 'POST', '/workspaces/team-b/members/remove', {
        token: mgmt(),
        body: { user_ids: [u1, 'user_not_a_member'] },
      });
      assert.equal(removed.status, 200);
      assert.deepEqual(removed.body, { removed_count: 1 });
    });

    it('bulk removal is all-or-nothing: 409 naming members with active API keys, nothing removed', async () => {
      const holder = await addMember('holder@example.com');
      const other = await addMember('other@example.com');
      await call(server, 'POST', '/workspaces', { token: mgmt(), body: { name: 'C', slug: 'team-c' } });
      await call(server, 'POST', '/workspaces/team-c/members/add', {
        token: mgmt(),
        body: { user_ids: [holder, other] },
      });
      const key = await call<{ data: { hash: string } }>(server, 'POST', '/keys', {
        token: mgmt(),
        body: { name: 'k', workspace_id: 'team-c', creator_user_id: holder },
      });
      assert.equal(key.status, 201);
      const res = await call<Err>(server, 'POST', '/workspaces/team-c/members/remove', {
        token: mgmt(),
        body: { user_ids: [other, holder] },
      });
      assert.equal(res.status, 409);
      assert.deepEqual(res.body.error.metadata?.user_ids, [holder]);
      const members = await call<{ total_count: number }>(server, 'GET', '/workspaces/team-c/members', {
        token: mgmt(),
      });
      assert.equal(members.body.total_count, 2, 'nobody removed');
      assert.equal(
        (await call(server, 'DELETE', '/workspaces/team-c', { token: mgmt() })).status,
        409,
        'active keys block deletion',
      );
      // A disabled key no longer blocks.
      await call(server, 'PATCH', `/keys/${key.body.data.hash}`, { token: mgmt(), body: { disabled: true } });
      const ok = await call<{ removed_count: number }>(server, 'POST', '/workspaces/team-c/members/remove', {
        token: mgmt(),
        body: { user_ids: [other, holder] },
      });
      assert.deepEqual(ok.body, { removed_count: 2 });
    });

    it('applies seed limits to bulk removal: 1 to 100 user_ids, 404 unknown workspace, 400 on default', async () => {
      const tooMany = Array.from({ length: 101 }, (_, i) => `user_${i}`);
      for (const body of [{ user_ids: [] }, { user_ids: tooMany }, {}, { user_ids: [''] }, { user_ids: 'user_1' }]) {
        assert.equal(
          (await call(server, 'POST', '/workspaces/default/members/remove', { token: mgmt(), body })).status,
          400,
          JSON.stringify(body).slice(0, 40),
        );
      }
      assert.equal(
        (
          await call(server, 'POST', '/workspaces/default/members/remove', {
            token: mgmt(),
            body: { user_ids: ['user_1'] },
          })
        ).status,
        400,
      );
      assert.equal(
        (
          await call(server, 'POST', '/workspaces/no-such-ws/members/remove', {
            token: mgmt(),
            body: { user_ids: ['user_1'] },
          })
        ).status,
        404,
      );
      const hundred = Array.from({ length: 100 }, (_, i) => `user_${i}`);
      await call(server, 'POST', '/workspaces', { token: mgmt(), body: { name: 'D', slug: 'team-d' } });
      const res = await call<{ removed_count: number }>(server, 'POST', '/workspaces/team-d/members/remove', {
        token: mgmt(),
        body: { user_ids: hundred },
      });
      assert.deepEqual(res.body, { removed_count: 0 });
    });

    it('creates API keys only for members of the workspace', async () => {
      const outsider = await addMember('outsider@example.com');
      await call(server, 'POST', '/workspaces', { token: mgmt(), body: { name: 'E', slug: 'team-e' } });
      const res = await call<Err>(server, 'POST', '/keys', {
        token: mgmt(),
        body: { name: 'k', workspace_id: 'team-e', creator_user_id: outsider },
      });
      assert.equal(res.status, 400);
      assert.equal(res.body.error.metadata?.field, 'creator_user_id');
    });

    it('rejects duplicate member emails and bad member bodies', async () => {
      await addMember('dupe@example.com');
      assert.equal(
        (await call(server, 'POST', '/organization/members', { token: mgmt(), body: { email: 'DUPE@example.com' } }))
          .status,
        409,
      );
      assert.equal(
        (await call(server, 'POST', '/organization/members', { token: mgmt(), body: { email: 'not-an-email' } }))
          .status,
        400,
      );
      assert.equal(
        (
          await call(server, 'POST', '/organization/members', {
            token: mgmt(),
            body: { email: 'r@example.com', role: 'root' },
          })
        ).status,
        400,
      );
      const page = await call<{ data: unknown[]; total_count: number }>(
        server,
        'GET',
        '/organization/members?offset=1&limit=2',
        { token: mgmt() },
      );
      assert.equal(page.body.data.length, 2);
      assert.ok(page.body.total_count > 2);
    });

    it('keeps members and workspaces across a restart', async () => {
      const before = await call<{ total_count: number }>(server, 'GET', '/organization/members', { token: mgmt() });
      const ws = await call<{ total_count: number }>(server, 'GET', '/workspaces', { token: mgmt() });
      await server.stop();
      server = await startTestServer({ dialect, db: server.db, managementToken: server.managementToken });
      assert.deepEqual(
        (await call<{ total_count: number }>(server, 'GET', '/organization/members', { token: mgmt() })).body
          .total_count,
        before.body.total_count,
      );
      assert.deepEqual(
        (await call<{ total_count: number }>(server, 'GET', '/workspaces', { token: mgmt() })).body.total_count,
        ws.body.total_count,
      );
    });
  });
}
