import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { digestToken } from '../../src/domain/keys/tokens.js';
import { call, dialects, startTestServer, type TestServer } from '../support/server.js';

/**
 * Operations that change stored management state and therefore must each leave exactly one audit
 * record. Every write operation of the OpenAPI document must be listed here or in NOT_WRITES:
 * a new route fails this suite until it is covered.
 */
const WRITE_METHODS = new Set(['post', 'put', 'patch', 'delete']);

/**
 * POST operations that do not write management state, each with the reason:
 * - model calls are metered in the ledger (docs/metering.md), not audited.
 */
const NOT_WRITES = new Set([
  'POST /chat/completions',
  'POST /completions',
  'POST /messages',
  'POST /responses',
  // An API key deleting its own stored response: a model-call surface, not a management write.
  'DELETE /responses/{id}',
  'POST /embeddings',
  // Counts the tokens of a Messages body; no model call, nothing stored.
  'POST /messages/count_tokens',
  // Content-filter dry runs and pattern checks: they read a guardrail and store nothing.
  'POST /guardrails/{id}/scan',
  'POST /guardrails/scan',
  'POST /guardrails/validate-pattern',
]);

/**
 * Writes that do not record an audit entry yet (a known gap, listed so it stays visible):
 * console sign-in and sign-out write a session row; recording them in the session's
 * transaction is the next step (src/domain/console/sessions.ts with `auditedWrite`).
 */
const NOT_YET_AUDITED = new Set([
  'POST /console/session',
  'DELETE /console/session',
  // Re-reads the catalog file into memory (nothing stored); an operator action worth recording too.
  'POST /catalog/reload',
]);

interface AuditRow {
  id: string;
  created_at: string;
  action: string;
  target: { type: string; id: string };
  actor: { type: string; member_id: string | null; email: string | null; key_hash: string | null };
  changes: Record<string, unknown> | null;
}

interface Fixture {
  server: TestServer;
  token: string;
  /** Creates something through the API and returns the response body. */
  post<T = Record<string, unknown>>(path: string, body?: unknown): Promise<T>;
  unique(prefix: string): string;
}

interface Case {
  method: string;
  path: string;
  body?: unknown;
  action: string;
  targetType: string;
  /** The target id the record must name; omitted when the operation creates it. */
  targetId?: string;
}

type Scenario = (f: Fixture) => Promise<Case>;

const newKey = (f: Fixture) => f.post<{ data: { hash: string } }>('/keys', { name: f.unique('k') });
const newMember = (f: Fixture) =>
  f.post<{ data: { id: string } }>('/organization/members', { email: `${f.unique('m')}@example.com` });
const newWorkspace = (f: Fixture) => {
  const slug = f.unique('ws');
  return f.post<{ data: { id: string } }>('/workspaces', { name: slug, slug });
};
const newGuardrail = (f: Fixture) => f.post<{ data: { id: string } }>('/guardrails', { name: f.unique('g') });
const newPreset = async (f: Fixture) => {
  const slug = f.unique('p');
  const body = { model: 'demo/echo', messages: [{ role: 'system', content: 'Be brief.' }] };
  const created = await f.post<{ data: { id: string } }>(`/presets/${slug}/chat/completions`, body);
  return { slug, id: created.data.id };
};

/** One scenario per write operation (keyed `METHOD /path` as in the OpenAPI document). */
const SCENARIOS: Record<string, Scenario> = {
  'POST /keys': (f) =>
    Promise.resolve({
      method: 'POST',
      path: '/keys',
      body: { name: f.unique('k'), limit: 5 },
      action: 'key.create',
      targetType: 'key',
    }),
  'PATCH /keys/{hash}': async (f) => {
    const { data } = await newKey(f);
    const path = `/keys/${data.hash}`;
    return {
      method: 'PATCH',
      path,
      body: { name: 'renamed', limit: 3 },
      action: 'key.update',
      targetType: 'key',
      targetId: data.hash,
    };
  },
  'DELETE /keys/{hash}': async (f) => {
    const { data } = await newKey(f);
    return {
      method: 'DELETE',
      path: `/keys/${data.hash}`,
      action: 'key.delete',
      targetType: 'key',
      targetId: data.hash,
    };
  },
  'POST /keys/{hash}/rotate': async (f) => {
    const { data } = await newKey(f);
    const path = `/keys/${data.hash}/rotate`;
    return { method: 'POST', path, action: 'key.rotate', targetType: 'key', targetId: data.hash };
  },
  'POST /organization/members': (f) =>
    Promise.resolve({
      method: 'POST',
      path: '/organization/members',
      body: { email: `${f.unique('m')}@example.com` },
      action: 'member.create',
      targetType: 'member',
    }),
  'PATCH /organization/members/{id}': async (f) => {
    const { data } = await newMember(f);
    return {
      method: 'PATCH',
      path: `/organization/members/${data.id}`,
      body: { role: 'org:admin', disabled: true },
      action: 'member.update',
      targetType: 'member',
      targetId: data.id,
    };
  },
  'PATCH /workspaces/{id}/members/{user_id}': async (f) => {
    const [ws, member] = [await newWorkspace(f), await newMember(f)];
    return {
      method: 'PATCH',
      path: `/workspaces/${ws.data.id}/members/${member.data.id}`,
      body: { role: 'viewer' },
      action: 'workspace.members.set_role',
      targetType: 'workspace',
      targetId: ws.data.id,
    };
  },
  'POST /workspaces': (f) => {
    const slug = f.unique('ws');
    return Promise.resolve({
      method: 'POST',
      path: '/workspaces',
      body: { name: slug, slug },
      action: 'workspace.create',
      targetType: 'workspace',
    });
  },
  'PATCH /workspaces/{id}': async (f) => {
    const { data } = await newWorkspace(f);
    const path = `/workspaces/${data.id}`;
    return {
      method: 'PATCH',
      path,
      body: { description: 'd' },
      action: 'workspace.update',
      targetType: 'workspace',
      targetId: data.id,
    };
  },
  'DELETE /workspaces/{id}': async (f) => {
    const { data } = await newWorkspace(f);
    const path = `/workspaces/${data.id}`;
    return { method: 'DELETE', path, action: 'workspace.delete', targetType: 'workspace', targetId: data.id };
  },
  'POST /workspaces/{id}/members/add': async (f) => {
    const ws = await newWorkspace(f);
    const member = await newMember(f);
    return {
      method: 'POST',
      path: `/workspaces/${ws.data.id}/members/add`,
      body: { user_ids: [member.data.id] },
      action: 'workspace.members.add',
      targetType: 'workspace',
      targetId: ws.data.id,
    };
  },
  'POST /workspaces/{id}/members/remove': async (f) => {
    const ws = await newWorkspace(f);
    const member = await newMember(f);
    await f.post(`/workspaces/${ws.data.id}/members/add`, { user_ids: [member.data.id] });
    return {
      method: 'POST',
      path: `/workspaces/${ws.data.id}/members/remove`,
      body: { user_ids: [member.data.id] },
      action: 'workspace.members.remove',
      targetType: 'workspace',
      targetId: ws.data.id,
    };
  },
  'POST /guardrails': (f) =>
    Promise.resolve({
      method: 'POST',
      path: '/guardrails',
      body: { name: f.unique('g'), limit_usd: 10, reset_interval: 'daily' },
      action: 'guardrail.create',
      targetType: 'guardrail',
    }),
  'PATCH /guardrails/{id}': async (f) => {
    const { data } = await newGuardrail(f);
    const path = `/guardrails/${data.id}`;
    return {
      method: 'PATCH',
      path,
      body: { description: 'x' },
      action: 'guardrail.update',
      targetType: 'guardrail',
      targetId: data.id,
    };
  },
  'DELETE /guardrails/{id}': async (f) => {
    const { data } = await newGuardrail(f);
    const path = `/guardrails/${data.id}`;
    return { method: 'DELETE', path, action: 'guardrail.delete', targetType: 'guardrail', targetId: data.id };
  },
  'POST /guardrails/{id}/assignments/keys': async (f) => {
    const g = await newGuardrail(f);
    const k = await newKey(f);
    return {
      method: 'POST',
      path: `/guardrails/${g.data.id}/assignments/keys`,
      body: { key_hashes: [k.data.hash] },
      action: 'guardrail.keys.assign',
      targetType: 'guardrail',
      targetId: g.data.id,
    };
  },
  'POST /guardrails/{id}/assignments/keys/remove': async (f) => {
    const g = await newGuardrail(f);
    const k = await newKey(f);
    await f.post(`/guardrails/${g.data.id}/assignments/keys`, { key_hashes: [k.data.hash] });
    return {
      method: 'POST',
      path: `/guardrails/${g.data.id}/assignments/keys/remove`,
      body: { key_hashes: [k.data.hash] },
      action: 'guardrail.keys.unassign',
      targetType: 'guardrail',
      targetId: g.data.id,
    };
  },
  'POST /guardrails/{id}/assignments/members': async (f) => {
    const g = await newGuardrail(f);
    const m = await newMember(f);
    return {
      method: 'POST',
      path: `/guardrails/${g.data.id}/assignments/members`,
      body: { member_user_ids: [m.data.id] },
      action: 'guardrail.members.assign',
      targetType: 'guardrail',
      targetId: g.data.id,
    };
  },
  'POST /guardrails/{id}/assignments/members/remove': async (f) => {
    const g = await newGuardrail(f);
    const m = await newMember(f);
    await f.post(`/guardrails/${g.data.id}/assignments/members`, { member_user_ids: [m.data.id] });
    return {
      method: 'POST',
      path: `/guardrails/${g.data.id}/assignments/members/remove`,
      body: { member_user_ids: [m.data.id] },
      action: 'guardrail.members.unassign',
      targetType: 'guardrail',
      targetId: g.data.id,
    };
  },
  'POST /presets/{slug}/chat/completions': (f) =>
    Promise.resolve({
      method: 'POST',
      path: `/presets/${f.unique('p')}/chat/completions`,
      body: { model: 'demo/echo', messages: [{ role: 'system', content: 'Be brief.' }] },
      action: 'preset.version.create',
      targetType: 'preset',
    }),
  'POST /presets/{slug}/responses': (f) =>
    Promise.resolve({
      method: 'POST',
      path: `/presets/${f.unique('pr')}/responses`,
      body: { model: 'demo/echo', instructions: 'Be brief.' },
      action: 'preset.version.create',
      targetType: 'preset',
    }),
  'POST /presets/{slug}/messages': (f) =>
    Promise.resolve({
      method: 'POST',
      path: `/presets/${f.unique('pm')}/messages`,
      body: { model: 'demo/echo', system: 'Be brief.' },
      action: 'preset.version.create',
      targetType: 'preset',
    }),
  'PATCH /presets/{slug}': async (f) => {
    const preset = await newPreset(f);
    return {
      method: 'PATCH',
      path: `/presets/${preset.slug}`,
      body: { description: 'changed' },
      action: 'preset.update',
      targetType: 'preset',
      targetId: preset.id,
    };
  },
};

/** Every record in the log, newest first, following the cursor. */
async function allRecords(server: TestServer, token: string): Promise<AuditRow[]> {
  const out: AuditRow[] = [];
  let cursor: string | null = null;
  do {
    const query: string = cursor === null ? '' : `&cursor=${cursor}`;
    const res = await call<{ data: AuditRow[]; next_cursor: string | null }>(
      server,
      'GET',
      `/audit-log?limit=50${query}`,
      { token },
    );
    assert.equal(res.status, 200, JSON.stringify(res.body));
    out.push(...res.body.data);
    cursor = res.body.next_cursor;
  } while (cursor !== null);
  return out;
}

for (const dialect of dialects()) {
  describe(`audit log (${dialect})`, () => {
    let server: TestServer;
    let f: Fixture;
    let keyHash = '';
    let operations: string[] = [];
    let n = 0;

    before(async () => {
      server = await startTestServer({ dialect });
      const token = server.managementToken;
      f = {
        server,
        token,
        unique: (prefix) => `${prefix}-${Date.now().toString(36)}-${(n++).toString(36)}`,
        post: async <T>(path: string, body?: unknown) => {
          const res = await call<T>(server, 'POST', path, { token, body });
          assert.ok(res.status < 300, `${path}: ${res.status} ${JSON.stringify(res.body)}`);
          return res.body;
        },
      };
      const record = await server.running.services.store.keys.findByDigest(digestToken(token));
      keyHash = record?.hash ?? '';
      const doc = (await call<{ paths: Record<string, Record<string, unknown>> }>(server, 'GET', '/openapi.json')).body;
      operations = Object.entries(doc.paths).flatMap(([path, ops]) =>
        Object.keys(ops)
          .filter((m) => WRITE_METHODS.has(m))
          .map((m) => `${m.toUpperCase()} ${path}`),
      );
    });
    after(() => server.close());

    it('every write operation of the OpenAPI document is covered (a new route must be added here)', () => {
      const unknown = operations.filter(
        (op) => SCENARIOS[op] === undefined && !NOT_WRITES.has(op) && !NOT_YET_AUDITED.has(op),
      );
      assert.deepEqual(unknown, [], `write operations without an audit scenario: ${unknown.join(', ')}`);
      assert.ok(operations.length >= Object.keys(SCENARIOS).length);
    });

    it('each write operation leaves exactly one record: actor, action, target, changes, no secret', async () => {
      for (const op of operations) {
        const scenario = SCENARIOS[op];
        if (scenario === undefined) continue;
        const c = await scenario(f);
        const before = new Set((await allRecords(server, f.token)).map((r) => r.id));
        const res = await call(server, c.method, c.path, { token: f.token, body: c.body });
        assert.ok(res.status < 300, `${op}: ${res.status} ${JSON.stringify(res.body)}`);
        const added = (await allRecords(server, f.token)).filter((r) => !before.has(r.id));
        assert.equal(added.length, 1, `${op}: ${added.length} records: ${JSON.stringify(added)}`);
        const [rec] = added;
        assert.ok(rec !== undefined);
        assert.equal(rec.action, c.action, op);
        assert.equal(rec.target.type, c.targetType, op);
        if (c.targetId !== undefined) assert.equal(rec.target.id, c.targetId, op);
        assert.deepEqual(
          { type: rec.actor.type, key_hash: rec.actor.key_hash, email: rec.actor.email },
          { type: 'key', key_hash: keyHash, email: 'owner@switchyard.local' },
          op,
        );
        assert.ok(Date.now() - Date.parse(rec.created_at) < 60_000, op);
        const text = JSON.stringify(rec);
        assert.ok(!text.includes('sk-sy-v1-'), `${op}: a token in the audit record`);
        assert.ok(!text.includes(f.token), op);
      }
    });

    it('a refused write (4xx) records nothing', async () => {
      const before = (await allRecords(server, f.token)).length;
      const slug = f.unique('dup');
      await f.post('/workspaces', { name: slug, slug });
      const dup = await call(server, 'POST', '/workspaces', { token: f.token, body: { name: slug, slug } });
      assert.equal(dup.status, 409);
      assert.equal((await call(server, 'PATCH', '/keys/nope', { token: f.token, body: { name: 'x' } })).status, 404);
      assert.equal((await allRecords(server, f.token)).length, before + 1);
    });

    it('filters: action, target, actor, time range; cursor paging is stable', async () => {
      const k = await newKey(f);
      await call(server, 'PATCH', `/keys/${k.data.hash}`, { token: f.token, body: { name: 'a' } });
      await call(server, 'PATCH', `/keys/${k.data.hash}`, { token: f.token, body: { name: 'b' } });
      const get = (q: string) =>
        call<{ data: AuditRow[]; next_cursor: string | null }>(server, 'GET', `/audit-log?${q}`, { token: f.token });
      const byTarget = await get(`target_type=key&target_id=${k.data.hash}`);
      assert.deepEqual(
        byTarget.body.data.map((r) => r.action),
        ['key.update', 'key.update', 'key.create'],
      );
      assert.deepEqual(byTarget.body.data[0]?.changes, { name: 'b' });
      const page1 = await get(`target_id=${k.data.hash}&limit=2`);
      assert.equal(page1.body.data.length, 2);
      assert.ok(page1.body.next_cursor !== null);
      const page2 = await get(`target_id=${k.data.hash}&limit=2&cursor=${page1.body.next_cursor}`);
      assert.deepEqual(
        page2.body.data.map((r) => r.action),
        ['key.create'],
      );
      assert.equal(page2.body.next_cursor, null);
      const byAction = await get('action=key.update&limit=500');
      assert.ok(byAction.body.data.every((r) => r.action === 'key.update'));
      assert.ok((await get(`actor=${keyHash}&limit=1`)).body.data.length === 1);
      assert.ok((await get('actor=owner@switchyard.local&limit=1')).body.data.length === 1);
      assert.equal((await get('actor=cli')).body.data.length, 0);
      assert.equal((await get('since=2100-01-01T00:00:00Z')).body.data.length, 0);
      assert.equal((await get('until=2000-01-01T00:00:00Z')).body.data.length, 0);
      assert.equal((await get('cursor=bogus')).status, 400);
      assert.equal((await get('since=yesterday')).status, 400);
    });

    it('an API key cannot read the audit log', async () => {
      const issued = await f.post<{ key: string }>('/keys', { name: f.unique('api') });
      assert.equal((await call(server, 'GET', '/audit-log', { token: issued.key })).status, 403);
    });
  });
}
