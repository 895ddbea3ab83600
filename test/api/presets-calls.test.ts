import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { call, dialects } from '../support/server.js';
import { startGateway, type GatewayHarness } from '../support/gateway.js';

type Err = { error?: { code: number; message: string; metadata: Record<string, unknown> | null } };
type ChatAnswer = Err & { id: string; model: string };
type Upstream = Record<string, unknown> & { model: string; messages: { role: string; content: unknown }[] };

/** Presets used in model calls: what reaches the (fake) upstream for each reference form. */
for (const dialect of dialects()) {
  describe(`presets in model calls (${dialect})`, () => {
    let gw: GatewayHarness;
    const mgmt = () => gw.server.managementToken;
    const save = (slug: string, body: Record<string, unknown>, query = '') =>
      call<{ data: { id: string } } & Err>(gw.server, 'POST', `/presets/${slug}/chat/completions${query}`, {
        token: mgmt(),
        body,
      });
    const patch = (slug: string, body: Record<string, unknown>) =>
      call<Err>(gw.server, 'PATCH', `/presets/${slug}`, { token: mgmt(), body });
    const chat = (body: Record<string, unknown>, token = gw.apiKey) =>
      call<ChatAnswer>(gw.server, 'POST', '/chat/completions', {
        token,
        body: { messages: [{ role: 'user', content: 'hello' }], ...body },
      });
    const sent = (): Upstream => {
      assert.equal(gw.fake.requests.length, 1, 'exactly one upstream request');
      return gw.fake.requests[0]?.body as Upstream;
    };
    let presetId = '';

    before(async () => {
      gw = await startGateway({ dialect });
      const created = await save('writer', {
        model: 'google/gemini-test',
        temperature: 0.2,
        max_tokens: 50,
        stop: ['END'],
        tools: [{ type: 'function', function: { name: 'lookup', description: 'from the preset' } }],
        messages: [
          { role: 'system', content: 'You are terse.' },
          { role: 'user', content: 'not kept' },
        ],
      });
      assert.equal(created.status, 200, JSON.stringify(created.body));
      presetId = created.body.data.id;
    });
    after(() => gw.close());
    beforeEach(() => gw.fake.reset());

    it('"model": "@preset/slug" runs the preset config with its system prompt first', async () => {
      const res = await chat({ model: '@preset/writer' });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.equal(res.body.model, 'google/gemini-test');
      const body = sent();
      assert.equal(body.model, 'gemini-test');
      assert.deepEqual([body.temperature, body.max_tokens, body.stop], [0.2, 50, ['END']]);
      assert.deepEqual(body.messages, [
        { role: 'system', content: 'You are terse.' },
        { role: 'user', content: 'hello' },
      ]);
      assert.ok(!('preset' in body));
    });

    it('"preset": "slug" and "author/model@preset/slug": the request model and fields win', async () => {
      const res = await chat({ model: 'openai/gpt-test', preset: 'writer', temperature: 0.9 });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      const body = sent();
      assert.deepEqual([body.model, body.temperature, body.max_tokens], ['gpt-test', 0.9, 50]);
      assert.equal(body.messages[0]?.role, 'system');
      assert.ok(!('preset' in body), 'preset never goes upstream');

      gw.fake.reset();
      const combined = await chat({
        model: 'openai/gpt-test@preset/writer',
        max_tokens: 7,
        stop: null,
        tools: [
          { type: 'function', function: { name: 'lookup', description: 'from the request' } },
          { type: 'function', function: { name: 'extra' } },
        ],
      });
      assert.equal(combined.status, 200, JSON.stringify(combined.body));
      const merged = sent();
      assert.deepEqual([merged.model, merged.temperature, merged.max_tokens, merged.stop], ['gpt-test', 0.2, 7, null]);
      const tools = merged.tools as { function: { name: string; description?: string } }[];
      assert.deepEqual(
        tools.map((t) => [t.function.name, t.function.description]),
        [
          ['lookup', 'from the request'],
          ['extra', undefined],
        ],
      );
    });

    it('the generation record names the preset and the version used', async () => {
      const res = await chat({ model: '@preset/writer' });
      const gen = await call<{ data: { preset_id: string | null } }>(
        gw.server,
        'GET',
        `/generation?id=${res.body.id}`,
        { token: gw.apiKey },
      );
      assert.equal(gen.body.data.preset_id, presetId);
      const key = await gw.server.running.services.authenticator.authenticate(gw.apiKey);
      const record = await gw.server.running.services.meter.getGeneration(res.body.id, key.hash);
      assert.deepEqual([record?.presetId, record?.presetVersion], [presetId, 1]);
      gw.fake.reset();
      const plain = await chat({ model: 'openai/gpt-test' });
      const none = await call<{ data: { preset_id: string | null } }>(
        gw.server,
        'GET',
        `/generation?id=${plain.body.id}`,
        { token: gw.apiKey },
      );
      assert.equal(none.body.data.preset_id, null);
    });

    it('a new version takes effect on the next call, and so does rolling back', async () => {
      await save('rolling', { model: 'openai/gpt-test', temperature: 0.1 });
      assert.equal((await chat({ model: '@preset/rolling' })).status, 200);
      assert.equal(sent().temperature, 0.1);
      await save('rolling', { model: 'openai/gpt-test', temperature: 1.1 });
      gw.fake.reset();
      await chat({ model: '@preset/rolling' });
      assert.equal(sent().temperature, 1.1, 'the new version, not the cached one');
      assert.equal((await patch('rolling', { designated_version: 1 })).status, 200);
      gw.fake.reset();
      await chat({ model: '@preset/rolling' });
      assert.equal(sent().temperature, 0.1, 'rolled back at once');
    });

    it('refusals: unknown preset 404, archived preset 400, legacy completions 400, bad slug 400', async () => {
      const unknown = await chat({ model: '@preset/nobody' });
      assert.equal(unknown.status, 404);
      assert.match(unknown.body.error?.message ?? '', /Preset nobody not found/);
      await save('old', { model: 'openai/gpt-test' });
      await patch('old', { status: 'archived' });
      const archived = await chat({ preset: 'old' });
      assert.equal(archived.status, 400);
      assert.match(archived.body.error?.message ?? '', /Preset old is archived/);
      assert.equal(archived.body.error?.metadata?.status, 'archived');
      await patch('old', { status: 'active' });
      assert.equal((await chat({ preset: 'old' })).status, 200, 'reactivated');
      const legacy = await call<ChatAnswer>(gw.server, 'POST', '/completions', {
        token: gw.apiKey,
        body: { model: '@preset/writer', prompt: 'x' },
      });
      assert.equal(legacy.status, 400);
      assert.match(legacy.body.error?.message ?? '', /Presets apply to chat completions, responses and messages/);
      const bad = await chat({ model: '@preset/a b' });
      assert.deepEqual([bad.status, bad.body.error?.metadata?.field], [400, 'model']);
      const contradicting = await chat({ model: '@preset/writer', preset: 'old' });
      assert.deepEqual([contradicting.status, contradicting.body.error?.metadata?.field], [400, 'preset']);
      assert.equal(gw.fake.requests.length, 1, 'only the reactivated call went upstream');
    });

    it("presets are per workspace: another workspace's key cannot use this one", async () => {
      const ws = await call<{ data: { id: string } }>(gw.server, 'POST', '/workspaces', {
        token: mgmt(),
        body: { name: 'Other', slug: 'other-team' },
      });
      const me = await call<{ data: { creator_user_id: string } }>(gw.server, 'GET', '/key', { token: mgmt() });
      await call(gw.server, 'POST', `/workspaces/${ws.body.data.id}/members/add`, {
        token: mgmt(),
        body: { user_ids: [me.body.data.creator_user_id] },
      });
      const key = await call<{ key: string }>(gw.server, 'POST', '/keys', {
        token: mgmt(),
        body: { name: 'other', workspace_id: ws.body.data.id },
      });
      assert.equal((await chat({ model: '@preset/writer' }, key.body.key)).status, 404);
      await save('writer', { model: 'openai/gpt-test', temperature: 1.7 }, '?workspace_id=other-team');
      assert.equal((await chat({ model: '@preset/writer' }, key.body.key)).status, 200);
      assert.deepEqual([sent().model, sent().temperature], ['gpt-test', 1.7]);
    });

    it('guardrails judge the merged request (the preset model, its system prompt)', async () => {
      const guard = await call<{ data: { id: string } }>(gw.server, 'POST', '/guardrails', {
        token: mgmt(),
        body: {
          name: 'gpt only',
          allowed_models: ['openai/gpt-test'],
          content_filters: [{ pattern: 'terse', action: 'block', label: 'STYLE' }],
        },
      });
      const key = await call<{ key: string; data: { hash: string } }>(gw.server, 'POST', '/keys', {
        token: mgmt(),
        body: { name: 'guarded' },
      });
      await call(gw.server, 'POST', `/guardrails/${guard.body.data.id}/assignments/keys`, {
        token: mgmt(),
        body: { key_hashes: [key.body.data.hash] },
      });
      const byModel = await chat({ model: '@preset/writer' }, key.body.key);
      assert.equal(byModel.status, 403, 'the preset model (google) is outside the allow list');
      await save('plain-gpt', { model: 'openai/gpt-test', messages: [{ role: 'system', content: 'Be terse.' }] });
      const byPrompt = await chat({ model: '@preset/plain-gpt' }, key.body.key);
      assert.equal(byPrompt.status, 403, 'the content filter sees the preset system prompt');
      assert.equal(gw.fake.requests.length, 0);
    });
  });
}
