import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { call, dialects, startTestServer, type TestServer } from '../support/server.js';

type Version = {
  id: string;
  preset_id: string;
  version: number;
  config: Record<string, unknown>;
  system_prompt: string;
  creator_id: string;
};
type Preset = Record<string, unknown> & {
  id: string;
  slug: string;
  name: string;
  status: string;
  designated_version_id: string;
  designated_version: Version;
};
type Err = { error: { code: number; message: string; metadata: Record<string, unknown> | null } };
type List<T> = { data: T[]; total_count: number };

const SEED_ORDER = [
  'id',
  'name',
  'slug',
  'description',
  'status',
  'status_updated_at',
  'creator_user_id',
  'workspace_id',
  'designated_version_id',
  'designated_version',
  'created_at',
  'updated_at',
];
const VERSION_ORDER = [
  'id',
  'preset_id',
  'version',
  'config',
  'system_prompt',
  'creator_id',
  'created_at',
  'updated_at',
];
const body = (extra: Record<string, unknown> = {}) => ({
  model: 'demo/echo',
  temperature: 0.2,
  stream: true,
  user: 'someone',
  messages: [
    { role: 'system', content: 'Answer briefly.' },
    { role: 'user', content: 'ignored' },
  ],
  ...extra,
});

for (const dialect of dialects()) {
  describe(`presets API (${dialect})`, () => {
    let server: TestServer;
    let apiKey: string;
    const mgmt = () => server.managementToken;
    const save = (slug: string, b: Record<string, unknown>, query = '') =>
      call<{ data: Preset } & Err>(server, 'POST', `/presets/${slug}/chat/completions${query}`, {
        token: mgmt(),
        body: b,
      });
    const get = <T = { data: Preset }>(path: string, token = apiKey) => call<T & Err>(server, 'GET', path, { token });
    const patch = (slug: string, b: Record<string, unknown>) =>
      call<{ data: Preset } & Err>(server, 'PATCH', `/presets/${slug}`, { token: mgmt(), body: b });
    const expect400 = async (res: Promise<{ status: number; body: Err }>, field: string) => {
      const r = await res;
      assert.equal(r.status, 400, JSON.stringify(r.body));
      assert.equal(r.body.error.code, 400);
      assert.equal(r.body.error.metadata?.field, field, r.body.error.message);
    };

    before(async () => {
      server = await startTestServer({ dialect });
      const key = await call<{ key: string }>(server, 'POST', '/keys', { token: mgmt(), body: { name: 'reader' } });
      apiKey = key.body.key;
    });
    after(() => server.close());

    it('creates from a chat body (200, preset fields and system prompt kept), then versions and designates', async () => {
      const me = await call<{ data: { creator_user_id: string } }>(server, 'GET', '/key', { token: mgmt() });
      const created = await save('support-bot', body({ provider: { sort: 'price' } }));
      assert.equal(created.status, 200, JSON.stringify(created.body));
      const p = created.body.data;
      assert.deepEqual(Object.keys(p), SEED_ORDER);
      assert.deepEqual(Object.keys(p.designated_version), VERSION_ORDER);
      assert.deepEqual(
        [p.slug, p.name, p.status, p.status_updated_at, p.description],
        ['support-bot', 'support-bot', 'active', null, null],
      );
      assert.equal(p.creator_user_id, me.body.data.creator_user_id);
      assert.equal(p.designated_version_id, p.designated_version.id);
      assert.deepEqual(p.designated_version.config, {
        model: 'demo/echo',
        temperature: 0.2,
        provider: { sort: 'price' },
      });
      assert.equal(p.designated_version.system_prompt, 'Answer briefly.');
      assert.equal(p.designated_version.version, 1);
      assert.equal(p.designated_version.creator_id, me.body.data.creator_user_id);

      const second = await save('support-bot', { model: 'demo/fast', max_tokens: 64 });
      assert.equal(second.status, 200);
      assert.equal(second.body.data.id, p.id, 'same preset, new version');
      assert.equal(second.body.data.designated_version.version, 2);
      assert.equal(second.body.data.designated_version.system_prompt, '');
      const got = await get('/presets/support-bot');
      assert.equal(got.status, 200);
      assert.deepEqual(got.body.data, second.body.data);
    });

    it('lists presets (most recently updated first) and versions (ascending) with seed pagination', async () => {
      await save('list-a', body());
      await save('list-b', body());
      const all = await get<List<Preset>>('/presets');
      assert.equal(all.status, 200);
      assert.deepEqual(
        all.body.data.slice(0, 2).map((x) => x.slug),
        ['list-b', 'list-a'],
      );
      assert.equal(all.body.total_count, all.body.data.length);
      assert.ok(
        !('designated_version' in (all.body.data[0] ?? {})),
        'list items are Preset, not PresetWithDesignatedVersion',
      );
      const page = await get<List<Preset>>('/presets?limit=1&offset=1');
      assert.deepEqual(
        [page.body.data.length, page.body.data[0]?.slug, page.body.total_count],
        [1, 'list-a', all.body.total_count],
      );

      await save('list-a', body({ temperature: 1 }));
      await save('list-a', body({ temperature: 1.5 }));
      const versions = await get<List<Version>>('/presets/list-a/versions');
      assert.deepEqual(
        versions.body.data.map((v) => v.version),
        [1, 2, 3],
      );
      assert.equal(versions.body.total_count, 3);
      const second = await get<List<Version>>('/presets/list-a/versions?offset=1&limit=1');
      assert.deepEqual([second.body.data.map((v) => v.version), second.body.total_count], [[2], 3]);
      const v2 = await get<{ data: Version }>('/presets/list-a/versions/2');
      assert.equal(v2.status, 200);
      assert.deepEqual(Object.keys(v2.body.data), VERSION_ORDER);
      assert.equal(v2.body.data.config.temperature, 1);
    });

    it('400: slugs that are not URL-safe, bad versions, invalid configs, bad pages and bodies', async () => {
      await save('valid', body());
      for (const slug of ['has%20space', 'a%2Fb', '%C3%A9t%C3%A9', 'a%3Fb']) {
        await expect400(get(`/presets/${slug}`), 'slug');
      }
      await expect400(get('/presets/has%20space/versions'), 'slug');
      await expect400(save('bad%20slug', body()), 'slug');
      for (const v of ['abc', '0', '-1', '1.5']) await expect400(get(`/presets/valid/versions/${v}`), 'version');
      await expect400(save('x', body({ model: 'nobody/unknown' })), 'model');
      await expect400(save('x', body({ models: ['demo/echo', 'nobody/unknown'] })), 'models[1]');
      await expect400(save('x', body({ temperature: 3 })), 'temperature');
      await expect400(save('x', body({ temperature: '0.5' })), 'temperature');
      await expect400(save('x', body({ top_p: 1.5 })), 'top_p');
      await expect400(save('x', body({ provider: { sort: 'nope' } })), 'provider.sort');
      await expect400(save('x', body({ model: '@preset/valid' })), 'model');
      await expect400(save('x', body({ preset: 'valid' })), 'preset');
      assert.equal((await get('/presets/x')).status, 404, 'nothing was created by a rejected body');
      await expect400(get('/presets?limit=0'), 'limit');
      await expect400(get('/presets?limit=101'), 'limit');
      await expect400(get('/presets?offset=-1'), 'offset');
      await expect400(patch('valid', { slug: 'renamed' }), 'slug');
      await expect400(patch('valid', { status: 'disabled' }), 'status');
      await expect400(patch('valid', { name: '' }), 'name');
      await expect400(patch('valid', { designated_version: 9 }), 'designated_version');
      await expect400(patch('valid', { designated_version: '1' }), 'designated_version');
      await expect400(patch('valid', { designated_version: 1e12 }), 'designated_version');
      await expect400(get('/presets/valid/versions/99999999999'), 'version');
    });

    it('404: unknown slugs and versions, in every read and in PATCH', async () => {
      for (const path of [
        '/presets/nope',
        '/presets/nope/versions',
        '/presets/nope/versions/1',
        '/presets/valid/versions/99',
      ]) {
        const r = await get(path);
        assert.equal(r.status, 404, path);
        assert.equal(r.body.error.code, 404);
      }
      assert.equal((await patch('nope', { name: 'x' })).status, 404);
    });

    it('PATCH: name, description, status (with status_updated_at) and roll back to an older version', async () => {
      await save('rollback', body({ temperature: 0.1 }));
      const v2 = await save('rollback', body({ temperature: 0.9 }));
      const updated = await patch('rollback', {
        name: 'Rollback bot',
        description: 'd',
        status: 'archived',
        designated_version: 1,
      });
      assert.equal(updated.status, 200, JSON.stringify(updated.body));
      const p = updated.body.data;
      assert.deepEqual([p.name, p.description, p.status], ['Rollback bot', 'd', 'archived']);
      assert.equal(typeof p.status_updated_at, 'string');
      assert.equal(p.designated_version.version, 1);
      assert.equal(p.designated_version.config.temperature, 0.1);
      assert.notEqual(p.designated_version_id, v2.body.data.designated_version_id);
      const unchanged = await patch('rollback', { status: 'archived' });
      assert.equal(unchanged.body.data.status_updated_at, p.status_updated_at, 'same status: not a transition');
      const cleared = await patch('rollback', { description: null, status: 'active' });
      assert.deepEqual(
        [cleared.body.data.description, cleared.body.data.name, cleared.body.data.status],
        [null, 'Rollback bot', 'active'],
      );
      const v3 = await save('rollback', body());
      assert.equal(v3.body.data.designated_version.version, 3, 'numbering continues after a roll back');
    });

    it('auth: API keys read, only management keys write; no header is 401', async () => {
      assert.equal((await get('/presets', mgmt())).status, 200);
      assert.equal((await get('/presets/valid', mgmt())).status, 200);
      const asApi = await call<Err>(server, 'POST', '/presets/valid/chat/completions', { token: apiKey, body: body() });
      assert.equal(asApi.status, 403);
      assert.equal(asApi.body.error.message, 'Only management keys can perform this operation');
      assert.equal((await call(server, 'PATCH', '/presets/valid', { token: apiKey, body: { name: 'x' } })).status, 403);
      const none = await call<Err>(server, 'GET', '/presets/valid', { token: null });
      assert.equal(none.status, 401);
      assert.equal(none.body.error.message, 'Missing Authentication header');
    });

    it('workspace isolation: a slug is per workspace; another workspace cannot see it', async () => {
      const ws = await call<{ data: { id: string } }>(server, 'POST', '/workspaces', {
        token: mgmt(),
        body: { name: 'Team B', slug: `team-b-${dialect}` },
      });
      const me = await call<{ data: { creator_user_id: string } }>(server, 'GET', '/key', { token: mgmt() });
      await call(server, 'POST', `/workspaces/${ws.body.data.id}/members/add`, {
        token: mgmt(),
        body: { user_ids: [me.body.data.creator_user_id] },
      });
      const other = await call<{ key: string }>(server, 'POST', '/keys', {
        token: mgmt(),
        body: { name: 'b', workspace_id: ws.body.data.id },
      });
      const bKey = other.body.key;
      assert.match(bKey, /^sk-sy-v1-/);
      assert.equal((await get('/presets/support-bot', bKey)).status, 404);
      assert.equal((await get('/presets/support-bot/versions', bKey)).status, 404);
      assert.deepEqual((await get<List<Preset>>('/presets', bKey)).body, { data: [], total_count: 0 });

      const inB = await save('support-bot', body({ temperature: 1.9 }), `?workspace_id=team-b-${dialect}`);
      assert.equal(inB.status, 200);
      assert.equal(inB.body.data.workspace_id, ws.body.data.id);
      assert.equal(inB.body.data.designated_version.version, 1, 'independent of the default workspace preset');
      const seenByB = await get('/presets/support-bot', bKey);
      assert.equal(seenByB.body.data.designated_version.config.temperature, 1.9);
      const seenByDefault = await get('/presets/support-bot');
      assert.equal(seenByDefault.body.data.designated_version.version, 2);
      assert.equal(
        (await get('/presets?workspace_id=default', bKey)).status,
        403,
        'an API key cannot read another workspace',
      );
      await expect400(get('/presets?workspace_id=no-such-workspace', mgmt()), 'workspace_id');
    });
  });
}
