import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { testCatalog } from '../support/gateway.js';
import { call, dialects, startTestServer, type TestServer } from '../support/server.js';

type G = Record<string, unknown> & { id: string; name: string; workspace_id: string };
type Page = { data: G[]; total_count: number };
type Err = { error: { code: number; message: string; metadata: Record<string, unknown> | null } };

for (const dialect of dialects()) {
  describe(`guardrails per workspace, pagination, default guardrail, canonical slugs (${dialect})`, () => {
    let server: TestServer;
    let dir = '';
    const mgmt = () => server.managementToken;
    const create = (body: Record<string, unknown>) =>
      call<{ data: G } & Err>(server, 'POST', '/guardrails', { token: mgmt(), body });
    const list = (query = '') => call<Page & Err>(server, 'GET', `/guardrails${query}`, { token: mgmt() });

    before(async () => {
      dir = mkdtempSync(join(tmpdir(), 'switchyard-guardrails-'));
      const configPath = join(dir, 'catalog.json');
      // Endpoints are never called here; the catalog only supplies slugs and canonical slugs.
      writeFileSync(configPath, JSON.stringify(testCatalog('http://127.0.0.1:9')));
      server = await startTestServer({ dialect, env: { SWITCHYARD_CONFIG: configPath } });
    });
    after(async () => {
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    });

    it('lists the default workspace unless workspace_id (uuid or slug) says otherwise; totals are real', async () => {
      const ws = (
        await call<{ data: { id: string } }>(server, 'POST', '/workspaces', {
          token: mgmt(),
          body: { name: 'Other', slug: 'other-ws' },
        })
      ).body.data;
      for (let i = 0; i < 5; i += 1) assert.equal((await create({ name: `d${i}` })).status, 201);
      for (let i = 0; i < 3; i += 1)
        assert.equal((await create({ name: `o${i}`, workspace_id: i === 0 ? ws.id : 'other-ws' })).status, 201);
      const def = await list('?limit=2');
      assert.deepEqual([def.body.total_count, def.body.data.length], [5, 2]);
      assert.deepEqual(
        def.body.data.map((g) => g.name),
        ['d0', 'd1'],
      );
      const second = await list('?limit=2&offset=2');
      assert.deepEqual(
        second.body.data.map((g) => g.name),
        ['d2', 'd3'],
      );
      const past = await list('?offset=10');
      assert.deepEqual([past.body.total_count, past.body.data.length], [5, 0]);
      const byId = await list(`?workspace_id=${ws.id}`);
      const bySlug = await list('?workspace_id=other-ws');
      assert.equal(byId.body.total_count, 3);
      assert.deepEqual(bySlug.body, byId.body);
      assert.ok(byId.body.data.every((g) => g.workspace_id === ws.id));
      assert.equal((await list('?workspace_id=default')).body.total_count, 5);
      for (const q of ['?limit=0', '?limit=101', '?offset=-1', '?limit=abc'])
        assert.equal((await list(q)).status, 400, q);
      assert.equal((await list('?limit=100')).status, 200);
      const unknown = await list('?workspace_id=missing-ws');
      assert.equal(unknown.status, 400);
      assert.equal(unknown.body.error.metadata?.field, 'workspace_id');
      assert.equal((await create({ name: 'x', workspace_id: 'missing-ws' })).status, 400);
    });

    it("materialises a workspace's default guardrail on its first PATCH", async () => {
      const ws = (
        await call<{ data: { id: string; default_guardrail_id: string } }>(server, 'POST', '/workspaces', {
          token: mgmt(),
          body: { name: 'Mat', slug: 'mat-ws' },
        })
      ).body.data;
      const id = ws.default_guardrail_id;
      assert.equal(
        (await call(server, 'GET', `/guardrails/${id}`, { token: mgmt() })).status,
        404,
        'not yet materialised',
      );
      const bad = await call<Err>(server, 'PATCH', `/guardrails/${id}`, {
        token: mgmt(),
        body: { reset_interval: 'daily' },
      });
      assert.equal(bad.status, 400);
      assert.equal(
        (await call(server, 'GET', `/guardrails/${id}`, { token: mgmt() })).status,
        404,
        'a rejected PATCH materialises nothing',
      );
      const patched = await call<{ data: G }>(server, 'PATCH', `/guardrails/${id}`, {
        token: mgmt(),
        body: { allowed_models: ['openai/gpt-test'] },
      });
      assert.equal(patched.status, 200);
      assert.equal(patched.body.data.id, id);
      assert.equal(patched.body.data.name, `Workspace ${ws.id} Default`);
      assert.equal(patched.body.data.workspace_id, ws.id);
      const again = await call<{ data: G }>(server, 'PATCH', `/guardrails/${id}`, {
        token: mgmt(),
        body: { name: 'Mat default' },
      });
      assert.equal(again.body.data.name, 'Mat default');
      assert.deepEqual(again.body.data.allowed_models, ['openai/gpt-test-2026-01-01']);
      assert.equal(again.body.data.created_at, patched.body.data.created_at);
      assert.equal((await list('?workspace_id=mat-ws')).body.total_count, 1);
      // The default guardrail applies to every key of the workspace (read API for enforcement).
      const [mgmtKey] = await server.running.services.store.keys.listManagement();
      assert.ok(mgmtKey);
      const effective = await server.running.services.guardrails.effectiveFor({ ...mgmtKey, workspaceId: ws.id });
      assert.deepEqual(
        effective.map((g) => g.id),
        [id],
      );
      const random = '00000000-0000-4000-8000-000000000001';
      assert.equal(
        (await call(server, 'PATCH', `/guardrails/${random}`, { token: mgmt(), body: { name: 'x' } })).status,
        404,
      );
    });

    it('stores and returns canonical slugs for models given by slug or canonical slug', async () => {
      const res = await create({
        name: 'canon',
        allowed_models: ['openai/gpt-test', 'anthropic/claude-test', 'openai/gpt-test-2026-01-01'],
        ignored_models: ['OpenAI/GPT-Test'],
      });
      assert.equal(res.status, 201);
      assert.deepEqual(res.body.data.allowed_models, ['openai/gpt-test-2026-01-01', 'anthropic/claude-test']);
      assert.deepEqual(res.body.data.ignored_models, ['openai/gpt-test-2026-01-01']);
      const patched = await call<{ data: G } & Err>(server, 'PATCH', `/guardrails/${res.body.data.id}`, {
        token: mgmt(),
        body: { ignored_models: ['google/gemini-test', 'demo/echo'] },
      });
      assert.equal(patched.status, 400, 'demo/echo is not in this catalog');
      assert.equal(patched.body.error.metadata?.field, 'ignored_models[1]');
      assert.match(patched.body.error.message, /demo\/echo/);
    });

    it('effectiveFor: key, creator member and workspace default guardrails together', async () => {
      const key = (
        await call<{ data: { hash: string } }>(server, 'POST', '/keys', { token: mgmt(), body: { name: 'eff' } })
      ).body.data;
      const services = server.running.services;
      const record = await services.store.keys.findByHash(key.hash);
      assert.ok(record);
      assert.deepEqual(await services.guardrails.effectiveFor(record), []);
      const forKey = (await create({ name: 'for key' })).body.data.id;
      const forMember = (await create({ name: 'for member' })).body.data.id;
      await call(server, 'POST', `/guardrails/${forKey}/assignments/keys`, {
        token: mgmt(),
        body: { key_hashes: [key.hash] },
      });
      await call(server, 'POST', `/guardrails/${forMember}/assignments/members`, {
        token: mgmt(),
        body: { member_user_ids: [record.creatorUserId] },
      });
      const def = (
        await call<{ data: { default_guardrail_id: string } }>(server, 'GET', '/workspaces/default', { token: mgmt() })
      ).body.data;
      await call(server, 'PATCH', `/guardrails/${def.default_guardrail_id}`, { token: mgmt(), body: { limit_usd: 1 } });
      const effective = await services.guardrails.effectiveFor(record);
      assert.deepEqual(
        effective.map((g) => g.id),
        [forKey, forMember, def.default_guardrail_id],
      );
    });
  });
}
