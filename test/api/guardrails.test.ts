import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { call, dialects, startTestServer, type TestServer } from '../support/server.js';

type G = Record<string, unknown> & { id: string; name: string; workspace_id: string };
type Err = { error: { code: number; message: string; metadata: Record<string, unknown> | null } };
const ZDR = [
  'enforce_zdr_vendor_a',
  'enforce_zdr_vendor_b',
  'enforce_zdr_vendor_c',
  'enforce_zdr_vendor_d',
  'enforce_zdr_other',
];
const PII = ['email', 'phone', 'ssn', 'credit-card', 'ip-address', 'person-name', 'address'];
const SEED_ORDER = [
  'id',
  'name',
  'created_at',
  'workspace_id',
  'description',
  'allowed_models',
  'allowed_providers',
  'ignored_models',
  'ignored_providers',
  'limit_usd',
  'reset_interval',
  'enforce_zdr',
  ...ZDR,
  'content_filter_builtins',
  'content_filters',
  'updated_at',
  'include_byok_in_budgets',
  // Switchyard's rate limits (docs/guardrails.md), after the documented keys.
  'requests_per_minute',
  'tokens_per_minute',
];

for (const dialect of dialects()) {
  describe(`guardrails CRUD and validation (${dialect})`, () => {
    let server: TestServer;
    const mgmt = () => server.managementToken;
    const create = (body: Record<string, unknown>) =>
      call<{ data: G } & Err>(server, 'POST', '/guardrails', { token: mgmt(), body });
    const patch = (id: string, body: Record<string, unknown>) =>
      call<{ data: G } & Err>(server, 'PATCH', `/guardrails/${id}`, { token: mgmt(), body });
    const expect400 = async (body: Record<string, unknown>, field: string, id?: string) => {
      const res = id === undefined ? await create({ name: 'x', ...body }) : await patch(id, body);
      assert.equal(res.status, 400, JSON.stringify(body));
      assert.equal(res.body.error.metadata?.field, field, `${JSON.stringify(body)} → ${res.body.error.message}`);
    };

    before(async () => {
      server = await startTestServer({ dialect });
    });
    after(() => server.close());

    it('creates (201), reads, updates, deletes; seed key order; default workspace', async () => {
      const created = await create({
        name: 'Team policy',
        description: 'd',
        allowed_models: ['demo/echo'],
        limit_usd: 12.5,
        reset_interval: 'weekly',
      });
      assert.equal(created.status, 201);
      const g = created.body.data;
      assert.deepEqual(Object.keys(g), SEED_ORDER);
      const def = await call<{ data: { id: string } }>(server, 'GET', '/workspaces/default', { token: mgmt() });
      assert.equal(g.workspace_id, def.body.data.id);
      assert.equal(g.updated_at, null);
      assert.equal(g.include_byok_in_budgets, false);
      for (const f of ZDR) assert.equal(g[f], null);
      const got = await call<{ data: G }>(server, 'GET', `/guardrails/${g.id}`, { token: mgmt() });
      assert.deepEqual(got.body.data, g);
      const updated = await patch(g.id, { name: 'Renamed' });
      assert.equal(updated.status, 200);
      assert.equal(updated.body.data.name, 'Renamed');
      assert.equal(updated.body.data.description, 'd', 'omitted fields unchanged');
      assert.deepEqual(updated.body.data.allowed_models, ['demo/echo']);
      assert.equal(updated.body.data.limit_usd, 12.5);
      assert.ok(typeof updated.body.data.updated_at === 'string');
      const deleted = await call(server, 'DELETE', `/guardrails/${g.id}`, { token: mgmt() });
      assert.deepEqual([deleted.status, deleted.body], [200, { deleted: true }]);
      assert.equal((await call(server, 'GET', `/guardrails/${g.id}`, { token: mgmt() })).status, 404);
      assert.equal((await call(server, 'DELETE', `/guardrails/${g.id}`, { token: mgmt() })).status, 404);
      assert.equal((await patch(g.id, { name: 'x' })).status, 404);
    });

    it('malformed ids: 404 on GET/DELETE/assignments listing, 400 on PATCH', async () => {
      assert.equal((await call(server, 'GET', '/guardrails/not-a-uuid', { token: mgmt() })).status, 404);
      assert.equal((await call(server, 'DELETE', '/guardrails/not-a-uuid', { token: mgmt() })).status, 404);
      assert.equal(
        (await call(server, 'GET', '/guardrails/not-a-uuid/assignments/keys', { token: mgmt() })).status,
        404,
      );
      const res = await patch('not-a-uuid', { name: 'x' });
      assert.equal(res.status, 400);
      assert.equal(res.body.error.metadata?.field, 'id');
    });

    it('list and field limits on create and update', async () => {
      const { body } = await create({ name: 'limits' });
      const id = body.data.id;
      assert.equal((await create({ name: 'n'.repeat(200), description: 'd'.repeat(1000) })).status, 201);
      for (const target of [undefined, id]) {
        await expect400({ name: '' }, 'name', target);
        await expect400({ name: 'n'.repeat(201) }, 'name', target);
        await expect400({ description: 'd'.repeat(1001) }, 'description', target);
        for (const f of ['allowed_models', 'allowed_providers', 'ignored_models', 'ignored_providers']) {
          await expect400({ [f]: [] }, f, target);
          await expect400({ [f]: [''] }, `${f}[0]`, target);
        }
        await expect400({ limit_usd: -1 }, 'limit_usd', target);
        await expect400({ limit_usd: '5' }, 'limit_usd', target);
        await expect400({ reset_interval: 'yearly' }, 'reset_interval', target);
        await expect400({ content_filters: [{ pattern: '', action: 'block' }] }, 'content_filters[0].pattern', target);
        await expect400(
          { content_filters: [{ pattern: 'x', action: 'block', label: 'l'.repeat(101) }] },
          'content_filters[0].label',
          target,
        );
        await expect400({ content_filters: [{ pattern: 'x', action: 'flag' }] }, 'content_filters[0].action', target);
        await expect400(
          { content_filter_builtins: [{ slug: 'email', action: 'block', label: 'l'.repeat(101) }] },
          'content_filter_builtins[0].label',
          target,
        );
        await expect400(
          { content_filter_builtins: [{ slug: 'secrets', action: 'block' }] },
          'content_filter_builtins[0].slug',
          target,
        );
        await expect400({ unknown_field: 1 }, 'unknown_field', target);
        await expect400({ enforce_zdr: 'yes' }, 'enforce_zdr', target);
      }
      await expect400({ name: null }, 'name', id);
      const missingName = await call<Err>(server, 'POST', '/guardrails', { token: mgmt(), body: {} });
      assert.equal(missingName.body.error.metadata?.field, 'name');
      // Nulls clear list fields; limits of 100 000 characters for a pattern.
      assert.equal(
        (
          await patch(id, {
            allowed_providers: null,
            content_filters: [{ pattern: 'a'.repeat(100_000), action: 'redact' }],
          })
        ).status,
        200,
      );
      await expect400(
        { content_filters: [{ pattern: 'a'.repeat(100_001), action: 'redact' }] },
        'content_filters[0].pattern',
        id,
      );
    });

    it('limit_usd alone is accepted (never resets); reset_interval needs a limit', async () => {
      const alone = await create({ name: 'l', limit_usd: 3 });
      assert.equal(alone.status, 201);
      assert.equal(alone.body.data.reset_interval, null);
      await expect400({ reset_interval: 'daily' }, 'reset_interval');
      await expect400({ limit_usd: null, reset_interval: 'daily' }, 'reset_interval');
      const id = alone.body.data.id;
      assert.equal(
        (await patch(id, { reset_interval: 'monthly' })).body.data.reset_interval,
        'monthly',
        'stored limit suffices',
      );
      await expect400({ limit_usd: null }, 'limit_usd', id);
      const cleared = await patch(id, { limit_usd: null, reset_interval: null });
      assert.deepEqual([cleared.body.data.limit_usd, cleared.body.data.reset_interval], [null, null]);
      await expect400({ reset_interval: 'daily' }, 'reset_interval', id);
    });

    it('rule Z on create: flag alone, per-vendor alone, both, null; aliases', async () => {
      const flags = (g: G) => ZDR.map((f) => g[f]);
      const alone = await create({ name: 'z', enforce_zdr: true });
      assert.deepEqual([alone.body.data.enforce_zdr, ...flags(alone.body.data)], [true, true, true, true, true, true]);
      const vendorOnly = await create({ name: 'z', enforce_zdr_vendor_b: true });
      assert.deepEqual(
        [vendorOnly.body.data.enforce_zdr, ...flags(vendorOnly.body.data)],
        [null, null, true, null, null, null],
      );
      const both = await create({ name: 'z', enforce_zdr: true, enforce_zdr_vendor_a: false, enforce_zdr_other: null });
      assert.deepEqual(flags(both.body.data), [false, true, true, true, null]);
      const nulls = await create({ name: 'z', enforce_zdr: null, enforce_zdr_vendor_c: true });
      assert.deepEqual(flags(nulls.body.data), [null, null, true, null, null]);
      const aliases = await create({
        name: 'z',
        enforce_zdr: false,
        enforce_zdr_anthropic: true,
        enforce_zdr_google: true,
        enforce_zdr_openai: null,
        enforce_zdr_xai: true,
      });
      assert.deepEqual(flags(aliases.body.data), [true, true, null, true, false]);
      assert.ok(
        !('enforce_zdr_anthropic' in aliases.body.data),
        'responses use the API names, not the provider aliases',
      );
      assert.equal(
        (await create({ name: 'z', enforce_zdr_anthropic: true, enforce_zdr_vendor_a: true })).status,
        201,
        'same value twice is fine',
      );
      await expect400({ enforce_zdr_anthropic: true, enforce_zdr_vendor_a: false }, 'enforce_zdr_anthropic');
      await expect400({ enforce_zdr_xai: null, enforce_zdr_vendor_d: true }, 'enforce_zdr_xai');
    });

    it('rule Z on update: unspecified flags untouched unless enforce_zdr is sent', async () => {
      const flags = (g: G) => ZDR.map((f) => g[f]);
      const id = (await create({ name: 'zu', enforce_zdr_vendor_a: true, enforce_zdr_other: false })).body.data.id;
      const vendor = await patch(id, { enforce_zdr_vendor_b: true });
      assert.deepEqual(flags(vendor.body.data), [true, true, null, null, false]);
      const flag = await patch(id, { enforce_zdr: false, enforce_zdr_openai: true });
      assert.deepEqual(
        [flag.body.data.enforce_zdr, ...flags(flag.body.data)],
        [false, false, false, true, false, false],
      );
      const cleared = await patch(id, { enforce_zdr: null });
      assert.deepEqual(
        [cleared.body.data.enforce_zdr, ...flags(cleared.body.data)],
        [null, null, null, null, null, null],
      );
      const unrelated = await patch(id, { enforce_zdr_other: true, name: 'zu2' });
      assert.deepEqual(flags(unrelated.body.data), [null, null, null, null, true]);
      await expect400({ enforce_zdr_google: false, enforce_zdr_vendor_b: true }, 'enforce_zdr_google', id);
    });

    it('builtin filters: rules 1 and 2 for every slug/action pair; label ignored; scan_scope', async () => {
      for (const slug of [...PII, 'regex-prompt-injection']) {
        for (const action of ['redact', 'block', 'flag']) {
          const res = await create({ name: 'b', content_filter_builtins: [{ slug, action, label: 'MINE' }] });
          const allowed = slug === 'regex-prompt-injection' || action !== 'flag';
          assert.equal(res.status, allowed ? 201 : 400, `${slug}/${action}`);
          if (!allowed) {
            assert.equal(res.body.error.metadata?.field, 'content_filter_builtins[0].action');
            continue;
          }
          const [entry] = res.body.data.content_filter_builtins as Record<string, unknown>[];
          const label = `[${slug.toUpperCase().replace(/-/g, '_')}]`.replace(
            '[REGEX_PROMPT_INJECTION]',
            '[PROMPT_INJECTION]',
          );
          const expected: Record<string, unknown> = { slug, action, label };
          if (slug === 'regex-prompt-injection') expected.scan_scope = 'all_messages';
          assert.deepEqual(entry, expected, 'label is the system label, not the one sent');
        }
      }
      const scoped = await create({
        name: 'b',
        content_filter_builtins: [{ slug: 'regex-prompt-injection', action: 'block', scan_scope: 'user_only' }],
      });
      assert.equal((scoped.body.data.content_filter_builtins as Record<string, unknown>[])[0]?.scan_scope, 'user_only');
      await expect400(
        { content_filter_builtins: [{ slug: 'email', action: 'block', scan_scope: 'user_only' }] },
        'content_filter_builtins[0].scan_scope',
      );
      await expect400(
        { content_filter_builtins: [{ slug: 'regex-prompt-injection', action: 'block', scan_scope: 'some' }] },
        'content_filter_builtins[0].scan_scope',
      );
      await expect400(
        {
          content_filter_builtins: [
            { slug: 'email', action: 'block' },
            { slug: 'email', action: 'redact' },
          ],
        },
        'content_filter_builtins[1].slug',
      );
      await expect400({ content_filter_builtins: [{ action: 'block' }] }, 'content_filter_builtins[0].slug');
    });

    it('custom filters compile with RE2 at write time', async () => {
      const ok = await create({
        name: 'c',
        content_filters: [
          { pattern: '(a+)+$', action: 'redact', label: 'A' },
          { pattern: '\\d{3}', action: 'block', label: null },
        ],
      });
      assert.equal(ok.status, 201);
      assert.deepEqual(ok.body.data.content_filters, [
        { pattern: '(a+)+$', action: 'redact', label: 'A' },
        { pattern: '\\d{3}', action: 'block', label: null },
      ]);
      for (const pattern of ['(?=x)', '(a)\\1', '(?<!y)z', '[']) {
        const res = await create({
          name: 'c',
          content_filters: [
            { pattern: 'ok', action: 'block' },
            { pattern, action: 'block' },
          ],
        });
        assert.equal(res.status, 400, pattern);
        assert.equal(res.body.error.metadata?.field, 'content_filters[1].pattern');
      }
    });

    it('PATCH replaces collections whole and null clears them', async () => {
      const id = (
        await create({
          name: 'r',
          allowed_providers: ['a', 'b'],
          content_filter_builtins: [
            { slug: 'email', action: 'block' },
            { slug: 'ssn', action: 'redact' },
          ],
          content_filters: [{ pattern: 'x', action: 'block' }],
        })
      ).body.data.id;
      const replaced = await patch(id, {
        allowed_providers: ['c'],
        content_filter_builtins: [{ slug: 'phone', action: 'redact' }],
      });
      assert.deepEqual(replaced.body.data.allowed_providers, ['c']);
      assert.deepEqual(
        (replaced.body.data.content_filter_builtins as { slug: string }[]).map((b) => b.slug),
        ['phone'],
      );
      assert.deepEqual(replaced.body.data.content_filters, [{ pattern: 'x', action: 'block', label: null }]);
      const cleared = await patch(id, {
        content_filter_builtins: null,
        content_filters: null,
        allowed_providers: null,
        description: null,
      });
      for (const f of ['content_filter_builtins', 'content_filters', 'allowed_providers', 'description'])
        assert.equal(cleared.body.data[f], null, f);
      const byok = await patch(id, { include_byok_in_budgets: true });
      assert.equal(byok.body.data.include_byok_in_budgets, true);
      assert.equal((await patch(id, { name: 'r2' })).body.data.include_byok_in_budgets, true, 'omitted: unchanged');
    });

    it('unknown models are a 400 naming them', async () => {
      await expect400({ allowed_models: ['demo/echo', 'nope/model'] }, 'allowed_models[1]');
      await expect400({ ignored_models: ['nope/model'] }, 'ignored_models[0]');
      const res = await create({
        name: 'm',
        allowed_models: ['demo/echo', 'demo/fast'],
        ignored_models: ['demo/fast'],
      });
      assert.deepEqual(res.body.data.allowed_models, ['demo/echo', 'demo/fast']);
    });
  });
}
