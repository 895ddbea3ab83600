import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { generateToken } from '../../src/domain/keys/tokens.js';
import { call, dialects, startTestServer, type TestServer } from '../support/server.js';

type Err = { error: { code: number; message: string; metadata: Record<string, unknown> | null } };
interface KeyAssignment {
  id: string;
  guardrail_id: string;
  key_hash: string;
  key_label: string;
  key_name: string;
  assigned_by: string | null;
  created_at: string;
}
interface MemberAssignment {
  id: string;
  guardrail_id: string;
  user_id: string;
  organization_id: string;
  assigned_by: string | null;
  created_at: string;
}
type Page<T> = { data: T[]; total_count: number };

for (const dialect of dialects()) {
  describe(`guardrail assignments (${dialect})`, () => {
    let server: TestServer;
    let ownerId = '';
    const mgmt = () => server.managementToken;
    const guardrail = async (name: string, workspace_id?: string) =>
      (
        await call<{ data: { id: string } }>(server, 'POST', '/guardrails', {
          token: mgmt(),
          body: { name, workspace_id },
        })
      ).body.data.id;
    const key = async (name: string, workspace_id?: string) =>
      (
        await call<{ data: { hash: string; label: string } }>(server, 'POST', '/keys', {
          token: mgmt(),
          body: { name, workspace_id },
        })
      ).body.data;
    const member = async (email: string) =>
      (
        await call<{ data: { id: string } }>(server, 'POST', '/organization/members', {
          token: mgmt(),
          body: { email },
        })
      ).body.data.id;
    const post = <T>(path: string, body: unknown) => call<T & Err>(server, 'POST', path, { token: mgmt(), body });
    const get = <T>(path: string) => call<T>(server, 'GET', path, { token: mgmt() });

    before(async () => {
      // The 401/403 walk fails authentication many times from one address on purpose.
      server = await startTestServer({ dialect, env: { SWITCHYARD_AUTH_FAILURE_LIMIT: '0' } });
      const [mgmtKey] = await server.running.services.store.keys.listManagement();
      ownerId = mgmtKey?.creatorUserId ?? '';
    });
    after(() => server.close());

    it('assigns keys, lists them (every assignment field), replaces on reassignment, removes', async () => {
      const g1 = await guardrail('g1');
      const g2 = await guardrail('g2');
      const k1 = await key('k1');
      const k2 = await key('k2');
      const k3 = await key('k3');
      const assigned = await post<{ assigned_count: number }>(`/guardrails/${g1}/assignments/keys`, {
        key_hashes: [k1.hash, k2.hash, k1.hash],
      });
      assert.deepEqual([assigned.status, assigned.body], [200, { assigned_count: 2 }]);
      assert.deepEqual(
        (await post(`/guardrails/${g1}/assignments/keys`, { key_hashes: [k1.hash] })).body,
        { assigned_count: 0 },
        'already there',
      );
      const listed = await get<Page<KeyAssignment>>(`/guardrails/${g1}/assignments/keys?limit=1`);
      assert.equal(listed.body.total_count, 2);
      assert.equal(listed.body.data.length, 1);
      const first = listed.body.data[0];
      assert.ok(first);
      assert.deepEqual(Object.keys(first), [
        'id',
        'guardrail_id',
        'key_hash',
        'key_label',
        'key_name',
        'assigned_by',
        'created_at',
      ]);
      assert.equal(first.guardrail_id, g1);
      const named = first.key_hash === k1.hash ? k1 : k2;
      assert.equal(first.key_label, named.label);
      assert.equal(first.key_name, first.key_hash === k1.hash ? 'k1' : 'k2');
      assert.ok(ownerId.startsWith('user_'));
      assert.equal(first.assigned_by, ownerId);
      assert.equal((await get<Page<KeyAssignment>>(`/guardrails/${g1}/assignments/keys?offset=1`)).body.data.length, 1);

      // A key holds one guardrail: assigning it to g2 moves it.
      assert.deepEqual((await post(`/guardrails/${g2}/assignments/keys`, { key_hashes: [k1.hash, k3.hash] })).body, {
        assigned_count: 2,
      });
      const g1Keys = await get<Page<KeyAssignment>>(`/guardrails/${g1}/assignments/keys`);
      assert.deepEqual(
        g1Keys.body.data.map((a) => a.key_hash),
        [k2.hash],
      );
      const all = await get<Page<KeyAssignment>>('/guardrails/assignments/keys?limit=2');
      assert.equal(all.body.total_count, 3);
      assert.equal(all.body.data.length, 2);

      const removed = await post<{ unassigned_count: number }>(`/guardrails/${g2}/assignments/keys/remove`, {
        key_hashes: [k1.hash, k2.hash, 'nope'],
      });
      assert.deepEqual(
        [removed.status, removed.body],
        [200, { unassigned_count: 1 }],
        'k2 is not on g2; unknown hashes are ignored',
      );
      assert.equal((await get<Page<KeyAssignment>>('/guardrails/assignments/keys')).body.total_count, 2);
    });

    it('rejects unknown hashes and management keys (400 naming them), bad bodies, unknown guardrails', async () => {
      const g = await guardrail('gv');
      const k = await key('kv');
      const unknown = await post(`/guardrails/${g}/assignments/keys`, { key_hashes: [k.hash, 'missing-hash'] });
      assert.equal(unknown.status, 400);
      assert.deepEqual(unknown.body.error.metadata?.key_hashes, ['missing-hash']);
      assert.match(unknown.body.error.message, /missing-hash/);
      const [mgmtKey] = await server.running.services.store.keys.listManagement();
      assert.ok(mgmtKey);
      const refused = await post(`/guardrails/${g}/assignments/keys`, { key_hashes: [mgmtKey.hash, k.hash] });
      assert.equal(refused.status, 400);
      assert.deepEqual(refused.body.error.metadata?.key_hashes, [mgmtKey.hash]);
      assert.equal(
        (await get<Page<KeyAssignment>>(`/guardrails/${g}/assignments/keys`)).body.total_count,
        0,
        'nothing assigned on error',
      );
      for (const body of [
        { key_hashes: [] },
        { key_hashes: [''] },
        {},
        { key_hashes: 'x' },
        { key_hashes: Array.from({ length: 1001 }, (_, i) => `h${i}`) },
      ]) {
        const res = await post(`/guardrails/${g}/assignments/keys`, body);
        assert.equal(res.status, 400, JSON.stringify(body).slice(0, 80));
      }
      const missing = '00000000-0000-4000-8000-000000000000';
      assert.equal((await post(`/guardrails/${missing}/assignments/keys`, { key_hashes: [k.hash] })).status, 404);
      assert.equal(
        (await post(`/guardrails/${missing}/assignments/keys/remove`, { key_hashes: [k.hash] })).status,
        404,
      );
      assert.equal((await get(`/guardrails/${missing}/assignments/keys`)).status, 404);
      assert.equal((await get(`/guardrails/${missing}/assignments/members`)).status, 404);
      assert.equal((await get('/guardrails/assignments/keys?limit=101')).status, 400);
      assert.equal((await get('/guardrails/assignments/keys?limit=0')).status, 400);
      assert.equal((await get('/guardrails/assignments/keys?offset=-1')).status, 400);
    });

    it('member assignments: assign, replace, list, remove, unknown members', async () => {
      const g1 = await guardrail('m1');
      const g2 = await guardrail('m2');
      const u1 = await member('gm1@example.com');
      const u2 = await member('gm2@example.com');
      assert.deepEqual((await post(`/guardrails/${g1}/assignments/members`, { member_user_ids: [u1, u2] })).body, {
        assigned_count: 2,
      });
      const listed = await get<Page<MemberAssignment>>(`/guardrails/${g1}/assignments/members`);
      assert.equal(listed.body.total_count, 2);
      const first = listed.body.data[0];
      assert.ok(first);
      assert.deepEqual(Object.keys(first), [
        'id',
        'guardrail_id',
        'user_id',
        'organization_id',
        'assigned_by',
        'created_at',
      ]);
      assert.equal(first.organization_id, 'org_default');
      assert.deepEqual((await post(`/guardrails/${g2}/assignments/members`, { member_user_ids: [u2] })).body, {
        assigned_count: 1,
      });
      assert.deepEqual(
        (await get<Page<MemberAssignment>>(`/guardrails/${g1}/assignments/members`)).body.data.map((m) => m.user_id),
        [u1],
      );
      const all = await get<Page<MemberAssignment>>('/guardrails/assignments/members?limit=1');
      assert.deepEqual([all.body.total_count, all.body.data.length], [2, 1]);
      const unknown = await post(`/guardrails/${g1}/assignments/members`, { member_user_ids: ['user_nope'] });
      assert.equal(unknown.status, 400);
      assert.deepEqual(unknown.body.error.metadata?.member_user_ids, ['user_nope']);
      assert.equal((await post(`/guardrails/${g1}/assignments/members`, { member_user_ids: [] })).status, 400);
      assert.deepEqual(
        (await post(`/guardrails/${g1}/assignments/members/remove`, { member_user_ids: [u1, u2] })).body,
        { unassigned_count: 1 },
      );
      assert.equal((await get<Page<MemberAssignment>>('/guardrails/assignments/members')).body.total_count, 1);
    });

    it('cascades: deleting a guardrail, a key or a workspace removes assignments', async () => {
      const before = (await get<Page<KeyAssignment>>('/guardrails/assignments/keys')).body.total_count;
      const g = await guardrail('cascade');
      const k1 = await key('c1');
      const k2 = await key('c2');
      const u = await member('cascade@example.com');
      await post(`/guardrails/${g}/assignments/keys`, { key_hashes: [k1.hash, k2.hash] });
      await post(`/guardrails/${g}/assignments/members`, { member_user_ids: [u] });
      assert.equal((await call(server, 'DELETE', `/keys/${k1.hash}`, { token: mgmt() })).status, 200);
      assert.equal((await get<Page<KeyAssignment>>(`/guardrails/${g}/assignments/keys`)).body.total_count, 1);
      const members = (await get<Page<MemberAssignment>>('/guardrails/assignments/members')).body.total_count;
      assert.equal((await call(server, 'DELETE', `/guardrails/${g}`, { token: mgmt() })).status, 200);
      assert.equal((await get<Page<KeyAssignment>>('/guardrails/assignments/keys')).body.total_count, before);
      assert.equal(
        (await get<Page<MemberAssignment>>('/guardrails/assignments/members')).body.total_count,
        members - 1,
      );
      // A key in a workspace that is deleted: its assignment and the workspace's guardrails go.
      const ws = (
        await call<{ data: { id: string } }>(server, 'POST', '/workspaces', {
          token: mgmt(),
          body: { name: 'C', slug: 'cascade-ws' },
        })
      ).body.data.id;
      const wg = await guardrail('in-ws', ws);
      await post('/workspaces/cascade-ws/members/add', { user_ids: [ownerId] });
      const wk = await key('wk', ws);
      await post(`/guardrails/${wg}/assignments/keys`, { key_hashes: [wk.hash] });
      assert.equal(
        (await call(server, 'PATCH', `/keys/${wk.hash}`, { token: mgmt(), body: { disabled: true } })).status,
        200,
      );
      assert.equal((await call(server, 'DELETE', '/workspaces/cascade-ws', { token: mgmt() })).status, 200);
      assert.equal((await get(`/guardrails/${wg}`)).status, 404);
      assert.equal((await get<Page<KeyAssignment>>('/guardrails/assignments/keys')).body.total_count, before);
    });

    it('401 and 403 on every guardrail route', async () => {
      const apiKey = (await call<{ key: string }>(server, 'POST', '/keys', { token: mgmt(), body: { name: 'api' } }))
        .body.key;
      const id = '00000000-0000-4000-8000-000000000000';
      const routes: [string, string, unknown?][] = [
        ['GET', '/guardrails'],
        ['POST', '/guardrails', { name: 'x' }],
        ['GET', `/guardrails/${id}`],
        ['PATCH', `/guardrails/${id}`, { name: 'y' }],
        ['DELETE', `/guardrails/${id}`],
        ['GET', `/guardrails/${id}/assignments/keys`],
        ['GET', '/guardrails/assignments/keys'],
        ['POST', `/guardrails/${id}/assignments/keys`, { key_hashes: ['a'] }],
        ['POST', `/guardrails/${id}/assignments/keys/remove`, { key_hashes: ['a'] }],
        ['GET', `/guardrails/${id}/assignments/members`],
        ['GET', '/guardrails/assignments/members'],
        ['POST', `/guardrails/${id}/assignments/members`, { member_user_ids: ['a'] }],
        ['POST', `/guardrails/${id}/assignments/members/remove`, { member_user_ids: ['a'] }],
      ];
      for (const [method, path, body] of routes) {
        const missing = await call<Err>(server, method, path, { body });
        assert.equal(missing.status, 401, `${method} ${path}`);
        assert.equal(missing.body.error.message, 'Missing Authentication header');
        assert.equal(
          (await call(server, method, path, { body, token: generateToken() })).status,
          401,
          `${method} ${path}`,
        );
        const forbidden = await call<Err>(server, method, path, { body, token: apiKey });
        assert.equal(forbidden.status, 403, `${method} ${path}`);
        assert.equal(forbidden.body.error.message, 'Only management keys can perform this operation');
      }
    });
  });
}
