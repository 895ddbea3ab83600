import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { call, dialects, startTestServer, type TestServer } from '../support/server.js';

/** Server sides of the console's edits: refusals the console shows, and moves recorded in the audit log. */
type Err = { error: { code: number; message: string; metadata: Record<string, unknown> | null } };
interface AuditRow {
  action: string;
  target: { type: string; id: string };
  changes: Record<string, unknown> | null;
}

for (const dialect of dialects()) {
  describe(`console edits, API side (${dialect})`, () => {
    let server: TestServer;
    const token = () => server.managementToken;
    const post = async <T>(path: string, body: unknown): Promise<T> => {
      const res = await call<T>(server, 'POST', path, { token: token(), body });
      assert.ok(res.status < 300, `${path}: ${res.status} ${JSON.stringify(res.body)}`);
      return res.body;
    };
    const audit = async (query: string) =>
      (await call<{ data: AuditRow[] }>(server, 'GET', `/audit-log?${query}`, { token: token() })).body.data;

    before(async () => {
      server = await startTestServer({ dialect });
    });
    after(() => server.close());

    it('PATCH /keys/{hash} edits name, limit, reset and expiry; a past expiry is a 400 naming the field', async () => {
      const issued = await post<{ data: { hash: string }; key: string }>('/keys', { name: 'edit me' });
      const path = `/keys/${issued.data.hash}`;
      const expires = new Date(Date.now() + 86_400_000).toISOString();
      const res = await call<{ data: Record<string, unknown> }>(server, 'PATCH', path, {
        token: token(),
        body: { name: 'edited', limit: 5, limit_reset: 'weekly', expires_at: expires },
      });
      assert.equal(res.status, 200);
      assert.deepEqual(
        [res.body.data['name'], res.body.data['limit'], res.body.data['limit_reset'], res.body.data['expires_at']],
        ['edited', 5, 'weekly', expires],
      );
      const past = await call<Err>(server, 'PATCH', path, {
        token: token(),
        body: { expires_at: '2001-01-01T00:00:00Z' },
      });
      assert.equal(past.status, 400);
      assert.equal(past.body.error.metadata?.['field'], 'expires_at');
      const cleared = await call<{ data: Record<string, unknown> }>(server, 'PATCH', path, {
        token: token(),
        body: { expires_at: null, limit: null, limit_reset: null },
      });
      assert.deepEqual([cleared.body.data['expires_at'], cleared.body.data['limit']], [null, null]);
      assert.equal((await call(server, 'GET', '/key', { token: issued.key })).status, 200);
      const [rec] = await audit(`target_id=${issued.data.hash}&action=key.update`);
      assert.deepEqual(rec?.changes, { limit: null, limit_reset: null, expires_at: null });
    });

    it('a workspace that owns active keys is not deleted: 409 with the reason and the count', async () => {
      const ws = await post<{ data: { id: string } }>('/workspaces', { name: 'Busy', slug: 'busy' });
      const members = await call<{ data: { id: string }[] }>(server, 'GET', '/organization/members', {
        token: token(),
      });
      await post('/workspaces/busy/members/add', { user_ids: members.body.data.map((m) => m.id) });
      const key = await post<{ data: { hash: string } }>('/keys', { name: 'k', workspace_id: ws.data.id });
      const refused = await call<Err>(server, 'DELETE', '/workspaces/busy', { token: token() });
      assert.equal(refused.status, 409);
      assert.match(refused.body.error.message, /still owns 1 active API key/);
      assert.deepEqual(refused.body.error.metadata, {
        reason: 'active_keys',
        active_key_count: 1,
        workspace_id: ws.data.id,
      });
      assert.equal((await call(server, 'GET', '/workspaces/busy', { token: token() })).status, 200);
      await call(server, 'PATCH', `/keys/${key.data.hash}`, { token: token(), body: { disabled: true } });
      assert.equal((await call(server, 'DELETE', '/workspaces/busy', { token: token() })).status, 200);
      assert.equal((await call(server, 'GET', '/workspaces/busy', { token: token() })).status, 404);
    });

    it('a workspace name over 100 characters is a 400 naming the field, never cut', async () => {
      const long = 'W'.repeat(300);
      for (const [method, path] of [
        ['POST', '/workspaces'],
        ['PATCH', '/workspaces/default'],
      ] as const) {
        const res = await call<Err>(server, method, path, { token: token(), body: { name: long, slug: 'long-name' } });
        assert.equal(res.status, 400, `${method} ${path}`);
        assert.match(res.body.error.message, /name/);
      }
      assert.equal((await call(server, 'GET', '/workspaces/long-name', { token: token() })).status, 404);
      const ok = await post<{ data: { name: string } }>('/workspaces', { name: 'W'.repeat(100), slug: 'long-name' });
      assert.equal(ok.data.name.length, 100);
    });

    it('assigning a key or member held by another guardrail records the implicit unassignment', async () => {
      const first = await post<{ data: { id: string } }>('/guardrails', { name: 'First' });
      const second = await post<{ data: { id: string } }>('/guardrails', { name: 'Second' });
      const key = await post<{ data: { hash: string } }>('/keys', { name: 'moved' });
      const fresh = await post<{ data: { hash: string } }>('/keys', { name: 'fresh' });
      const member = await post<{ data: { id: string } }>('/organization/members', { email: 'mover@example.com' });
      await post(`/guardrails/${first.data.id}/assignments/keys`, { key_hashes: [key.data.hash] });
      await post(`/guardrails/${first.data.id}/assignments/members`, { member_user_ids: [member.data.id] });
      assert.deepEqual(await audit(`target_id=${first.data.id}&action=guardrail.keys.unassign`), []);

      await post(`/guardrails/${second.data.id}/assignments/keys`, { key_hashes: [key.data.hash, fresh.data.hash] });
      await post(`/guardrails/${second.data.id}/assignments/members`, { member_user_ids: [member.data.id] });
      const onFirst = await audit(`target_id=${first.data.id}`);
      assert.deepEqual(
        onFirst.slice(0, 2).map((r) => [r.action, r.changes]),
        [
          ['guardrail.members.unassign', { member_user_ids: [member.data.id], moved_to: second.data.id }],
          ['guardrail.keys.unassign', { key_hashes: [key.data.hash], moved_to: second.data.id }],
        ],
      );
      const onSecond = await audit(`target_id=${second.data.id}&action=guardrail.keys.assign`);
      assert.deepEqual(onSecond[0]?.changes, { key_hashes: [key.data.hash, fresh.data.hash] });
      // Assigning again to the guardrail the key already holds moves nothing and records no unassignment.
      const before = (await audit(`action=guardrail.keys.unassign`)).length;
      await post(`/guardrails/${second.data.id}/assignments/keys`, { key_hashes: [key.data.hash] });
      assert.equal((await audit(`action=guardrail.keys.unassign`)).length, before);
    });

    it('a refused assignment records neither side of the move', async () => {
      const g = await post<{ data: { id: string } }>('/guardrails', { name: 'Third' });
      const before = (await audit('limit=500')).length;
      const res = await call(server, 'POST', `/guardrails/${g.data.id}/assignments/keys`, {
        token: token(),
        body: { key_hashes: ['0'.repeat(64)] },
      });
      assert.equal(res.status, 400);
      assert.equal((await audit('limit=500')).length, before);
    });
  });
}
