import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { MutableClock } from '../support/clock.js';
import { call, dialects, startTestServer, type TestServer } from '../support/server.js';

interface Row {
  id: string;
  key_hash: string;
  key_name: string | null;
  model: string;
  status: string;
  cost_usd: number;
  prompt_tokens: number;
  completion_tokens: number;
  flags: string[];
}
interface Page {
  data: Row[];
  next_cursor: string | null;
}
interface ActivityRow {
  date: string;
  model: string;
  endpoint_id: string;
  usage: number;
  requests: number;
  prompt_tokens: number;
  completion_tokens: number;
}

const close = (a: number, b: number) => assert.ok(Math.abs(a - b) < 1e-9, `${a} ≈ ${b}`);

for (const dialect of dialects()) {
  describe(`analytics API over a ledger written by real calls (${dialect})`, () => {
    let server: TestServer;
    const clock = new MutableClock('2026-11-23T10:15:00.000Z');
    const keys: { key: string; hash: string }[] = [];
    let mgmt = '';

    const chat = (key: string, model: string, content: string) =>
      call(server, 'POST', '/chat/completions', { token: key, body: { model, messages: [{ role: 'user', content }] } });

    before(async () => {
      server = await startTestServer({ dialect, clock });
      mgmt = server.managementToken;
      for (const name of ['alpha', 'beta']) {
        const res = await call<{ key: string; data: { hash: string } }>(server, 'POST', '/keys', {
          token: mgmt,
          body: { name },
        });
        keys.push({ key: res.body.key, hash: res.body.data.hash });
      }
      const [alpha, beta] = keys;
      assert.ok(alpha && beta);
      // Yesterday (UTC) in two hours, two models, two keys; one call fails (unknown model → no record).
      for (let i = 0; i < 5; i++) assert.equal((await chat(alpha.key, 'demo/echo', `hello ${i}`)).status, 200);
      clock.advance(3_600_000);
      for (let i = 0; i < 3; i++) assert.equal((await chat(beta.key, 'demo/fast', `hi there ${i}`)).status, 200);
      assert.equal((await chat(alpha.key, 'demo/fast', 'one more')).status, 200);
      await server.running.services.meter.flush();
      clock.set('2026-11-24T06:00:00.000Z');
    });
    after(() => server.close());

    const allPages = async (token: string, query: string, limit: number) => {
      const rows: Row[] = [];
      let cursor: string | null = null;
      let pages = 0;
      do {
        const q: string = `/generations?limit=${limit}${query}${cursor === null ? '' : `&cursor=${cursor}`}`;
        const res = await call<Page>(server, 'GET', q, { token });
        assert.equal(res.status, 200);
        assert.ok(res.body.data.length <= limit);
        rows.push(...res.body.data);
        cursor = res.body.next_cursor;
        pages += 1;
      } while (cursor !== null && pages < 100);
      return rows;
    };

    it('pages through every generation newest first, without gaps or repeats', async () => {
      const rows = await allPages(mgmt, '', 2);
      assert.equal(rows.length, 9);
      assert.equal(new Set(rows.map((r) => r.id)).size, 9);
      const one = await call<Page>(server, 'GET', '/generations?limit=100', { token: mgmt });
      assert.deepEqual(
        rows.map((r) => r.id),
        one.body.data.map((r) => r.id),
      );
      assert.ok(rows.every((r) => r.status === 'success' && !('prompt' in r) && !('messages' in r)));
    });

    it('GET /generations/{id} names the key that made the call beside the generation', async () => {
      const [alpha, beta] = keys;
      assert.ok(alpha && beta);
      const [row] = await allPages(mgmt, `&key_hash=${alpha.hash}`, 1);
      assert.ok(row);
      const one = await call<{ data: { id: string }; key: { hash: string; name: string } | null }>(
        server,
        'GET',
        `/generations/${row.id}`,
        { token: mgmt },
      );
      assert.equal(one.status, 200);
      assert.equal(one.body.data.id, row.id);
      assert.equal(one.body.key?.hash, alpha.hash);
      assert.equal(one.body.key?.name, row.key_name);
      assert.equal((await call(server, 'GET', `/generations/${row.id}`, { token: beta.key })).status, 404);
    });

    it('filters by key, model and status; an API key sees only its own rows', async () => {
      const [alpha, beta] = keys;
      assert.ok(alpha && beta);
      assert.equal((await allPages(mgmt, `&key_hash=${alpha.hash}`, 3)).length, 6);
      assert.equal((await allPages(mgmt, '&model=demo/fast', 3)).length, 4);
      assert.equal((await allPages(mgmt, '&status=error', 3)).length, 0);
      assert.equal((await allPages(mgmt, '&flagged=true', 3)).length, 0);
      const own = await allPages(beta.key, '', 2);
      assert.equal(own.length, 3);
      assert.ok(own.every((r) => r.key_hash === beta.hash));
      const other = await call(server, 'GET', `/generations?key_hash=${alpha.hash}`, { token: beta.key });
      assert.equal(other.status, 403);
      assert.equal((await call(server, 'GET', '/generations?cursor=bm9wZQ', { token: mgmt })).status, 400);
    });

    it('GET /activity matches the raw ledger per day, model and endpoint', async () => {
      const raw = await allPages(mgmt, '', 100);
      const res = await call<{ data: ActivityRow[] }>(server, 'GET', '/activity', { token: mgmt });
      assert.equal(res.status, 200);
      assert.ok(res.body.data.every((r) => r.date === '2026-11-23'));
      for (const model of ['demo/echo', 'demo/fast']) {
        const mine = raw.filter((r) => r.model === model);
        const rows = res.body.data.filter((r) => r.model === model);
        assert.equal(rows.length, 1);
        const [row] = rows;
        assert.ok(row);
        assert.equal(row.requests, mine.length);
        close(
          row.usage,
          mine.reduce((s, r) => s + r.cost_usd, 0),
        );
        assert.equal(
          row.prompt_tokens,
          mine.reduce((s, r) => s + r.prompt_tokens, 0),
        );
        assert.equal(
          row.completion_tokens,
          mine.reduce((s, r) => s + r.completion_tokens, 0),
        );
      }
      const day = await call<{ data: ActivityRow[] }>(server, 'GET', '/activity?date=2026-11-23', { token: mgmt });
      assert.deepEqual(day.body.data, res.body.data);
      assert.equal((await call(server, 'GET', '/activity?date=2026-11-24', { token: mgmt })).status, 400);
      const [, beta] = keys;
      assert.ok(beta);
      const own = await call<{ data: ActivityRow[] }>(server, 'GET', '/activity', { token: beta.key });
      assert.deepEqual(
        own.body.data.map((r) => [r.model, r.requests]),
        [['demo/fast', 3]],
      );
    });

    it('the overview series and totals equal the raw ledger (rollups vs generations)', async () => {
      const raw = await allPages(mgmt, '', 100);
      const res = await call<{
        data: {
          buckets: string[];
          series: { group: string; spend_usd: number[]; requests: number[] }[];
          totals: { spend_usd: number; requests: number };
        };
      }>(server, 'GET', '/analytics/usage?range=30d&group_by=key', { token: mgmt });
      assert.equal(res.status, 200);
      assert.equal(res.body.data.buckets.length, 30);
      assert.equal(res.body.data.buckets[28], '2026-11-23T00:00:00.000Z');
      assert.equal(res.body.data.totals.requests, raw.length);
      close(
        res.body.data.totals.spend_usd,
        raw.reduce((s, r) => s + r.cost_usd, 0),
      );
      for (const key of keys) {
        const series = res.body.data.series.find((s) => s.group === key.hash);
        assert.ok(series);
        assert.equal(series.requests[28], raw.filter((r) => r.key_hash === key.hash).length);
      }
      const hourly = await call<{ data: { buckets: string[]; totals: { requests: number } } }>(
        server,
        'GET',
        '/analytics/usage?range=24h',
        { token: mgmt },
      );
      assert.equal(hourly.body.data.buckets.length, 24);
      // 2026-11-23T10:xx and 11:xx are within the 24 hours ending 2026-11-24T06.
      assert.equal(hourly.body.data.totals.requests, raw.length);
      assert.equal((await call(server, 'GET', '/analytics/usage', { token: keys[0]?.key ?? '' })).status, 403);
    });

    it('limits and endpoint health answer', async () => {
      const [alpha] = keys;
      assert.ok(alpha);
      await call(server, 'PATCH', `/keys/${alpha.hash}`, { token: mgmt, body: { limit: 1 } });
      const limits = await call<{ data: { keys: { hash: string; usage_usd: number }[] } }>(
        server,
        'GET',
        '/analytics/limits',
        { token: mgmt },
      );
      assert.equal(limits.status, 200);
      assert.equal(limits.body.data.keys[0]?.hash, alpha.hash);
      assert.ok((limits.body.data.keys[0]?.usage_usd ?? 0) > 0);
      // A guardrail budget assigned to the key is listed with the key's spend (read alongside the keys).
      const guardrail = await call<{ data: { id: string } }>(server, 'POST', '/guardrails', {
        token: mgmt,
        body: { name: 'budget', limit_usd: 2 },
      });
      assert.equal(guardrail.status, 201);
      const assign = await call(server, 'POST', `/guardrails/${guardrail.body.data.id}/assignments/keys`, {
        token: mgmt,
        body: { key_hashes: [alpha.hash] },
      });
      assert.ok(assign.status < 300);
      const budgets = await call<{
        data: {
          keys: { usage_usd: number }[];
          guardrails: { guardrail_id: string; assignee_id: string; usage_usd: number }[];
        };
      }>(server, 'GET', '/analytics/limits', { token: mgmt });
      const [budget] = budgets.body.data.guardrails.filter((g) => g.guardrail_id === guardrail.body.data.id);
      assert.ok(budget);
      assert.equal(budget.assignee_id, alpha.hash);
      assert.equal(budget.usage_usd, budgets.body.data.keys[0]?.usage_usd);
      const health = await call<{ data: { endpoint_id: string; circuit: string }[] }>(
        server,
        'GET',
        '/analytics/endpoints',
        { token: mgmt },
      );
      assert.equal(health.status, 200);
      assert.ok(health.body.data.length > 0);
      assert.ok(health.body.data.every((e) => e.circuit === 'closed'));
    });
  });
}

describe('guardrail filter preview and pattern validation', () => {
  let server: TestServer;
  let guardrailId = '';
  before(async () => {
    server = await startTestServer({ dialect: 'sqlite' });
    const res = await call<{ data: { id: string } }>(server, 'POST', '/guardrails', {
      token: server.managementToken,
      body: {
        name: 'pii',
        content_filter_builtins: [
          { slug: 'email', action: 'redact' },
          { slug: 'regex-prompt-injection', action: 'flag' },
        ],
        content_filters: [{ pattern: 'project-x\\d+', action: 'block', label: 'codename' }],
      },
    });
    assert.equal(res.status, 201);
    guardrailId = res.body.data.id;
  });
  after(() => server.close());

  interface Preview {
    data: {
      outcome: string;
      blocked_by: string | null;
      redacted_text: string | null;
      redactions: number;
      matches: { filter: string; start: number; end: number }[];
    };
  }
  const scan = (text: string) =>
    call<Preview>(server, 'POST', `/guardrails/${guardrailId}/scan`, { token: server.managementToken, body: { text } });

  it('redacts, blocks and reports matches without calling a model', async () => {
    const redacted = await scan('Mail bob@example.com now');
    assert.equal(redacted.status, 200);
    assert.equal(redacted.body.data.outcome, 'redacted');
    assert.equal(redacted.body.data.redactions, 1);
    assert.ok(!(redacted.body.data.redacted_text ?? '').includes('bob@example.com'));
    assert.deepEqual(redacted.body.data.matches[0], { filter: 'email', action: 'redact', start: 5, end: 20 });
    const blocked = await scan('about project-x42');
    assert.equal(blocked.body.data.outcome, 'blocked');
    assert.equal(blocked.body.data.blocked_by, 'codename');
    assert.equal(blocked.body.data.redacted_text, null);
    assert.equal((await scan('nothing here')).body.data.outcome, 'clean');
    const missing = await call(server, 'POST', '/guardrails/00000000-0000-4000-8000-000000000000/scan', {
      token: server.managementToken,
      body: { text: 'x' },
    });
    assert.equal(missing.status, 404);
  });

  it('scans an unsaved configuration and names a bad pattern', async () => {
    const ok = await call<Preview>(server, 'POST', '/guardrails/scan', {
      token: server.managementToken,
      body: { text: 'ticket ABC-123', content_filters: [{ pattern: '[A-Z]{3}-\\d+', action: 'redact' }] },
    });
    assert.equal(ok.status, 200);
    assert.equal(ok.body.data.outcome, 'redacted');
    // "Try it" shows a bracketed label as given, bracketed once.
    const labelled = await call<Preview>(server, 'POST', '/guardrails/scan', {
      token: server.managementToken,
      body: {
        text: 'ticket ABC-123',
        content_filters: [{ pattern: '[A-Z]{3}-\\d+', action: 'redact', label: '[TICKET]' }],
      },
    });
    assert.equal(labelled.body.data.redacted_text, 'ticket [TICKET]');
    const bad = await call<{ error: { metadata: { field: string } } }>(server, 'POST', '/guardrails/scan', {
      token: server.managementToken,
      body: { text: 'x', content_filters: [{ pattern: '(?<=a)b', action: 'block' }] },
    });
    assert.equal(bad.status, 400);
    assert.equal(bad.body.error.metadata.field, 'content_filters[0].pattern');
    const valid = await call<{ data: { valid: boolean; error: string | null } }>(
      server,
      'POST',
      '/guardrails/validate-pattern',
      { token: server.managementToken, body: { pattern: '(a' } },
    );
    assert.equal(valid.body.data.valid, false);
    assert.ok((valid.body.data.error ?? '').length > 0);
  });
});
