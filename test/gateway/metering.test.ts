import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { FAKE_USAGE } from '../fake-upstream/index.js';
import { call, dialects } from '../support/server.js';
import { PRICES, startGateway, type GatewayHarness } from '../support/gateway.js';

const ONE_CALL =
  FAKE_USAGE.prompt_tokens * PRICES.primary.prompt + FAKE_USAGE.completion_tokens * PRICES.primary.completion;
const near = (a: number, b: number) => Math.abs(a - b) < 1e-9;

for (const dialect of dialects()) {
  describe(`metering (${dialect})`, () => {
    let gw: GatewayHarness;
    const newKey = async (body: Record<string, unknown>) => {
      const res = await call<{ key: string; data: { hash: string } }>(gw.server, 'POST', '/keys', {
        token: gw.server.managementToken,
        body: { name: 'm', ...body },
      });
      return res.body;
    };
    const chat = (token: string, extra: Record<string, unknown> = {}) =>
      call<{ id: string; usage: { cost: number }; error?: { code: number } }>(gw.server, 'POST', '/chat/completions', {
        token,
        body: {
          model: 'openai/gpt-test',
          provider: { allow_fallbacks: false },
          max_tokens: 10,
          messages: [{ role: 'user', content: 'hi' }],
          ...extra,
        },
      });

    before(async () => {
      gw = await startGateway({ dialect });
    });
    after(() => gw.close());

    it('records cost to the cent and shows it as key usage and a generation record', async () => {
      const key = await newKey({});
      const a = await chat(key.key);
      const b = await chat(key.key, { stream: false });
      assert.equal(a.status, 200);
      assert.ok(near(a.body.usage.cost + b.body.usage.cost, 2 * ONE_CALL));
      const info = await call<{
        data: { usage: number; usage_daily: number; usage_weekly: number; usage_monthly: number };
      }>(gw.server, 'GET', '/key', { token: key.key });
      assert.ok(near(info.body.data.usage, 2 * ONE_CALL), `usage ${info.body.data.usage}`);
      assert.ok(near(info.body.data.usage_daily, 2 * ONE_CALL));
      const listed = await call<{ data: { usage_monthly: number } }>(gw.server, 'GET', `/keys/${key.data.hash}`, {
        token: gw.server.managementToken,
      });
      assert.ok(near(listed.body.data.usage_monthly, 2 * ONE_CALL));
      const gen = await call<{ data: Record<string, unknown> }>(gw.server, 'GET', `/generation?id=${a.body.id}`, {
        token: key.key,
      });
      assert.equal(gen.status, 200);
      assert.equal(gen.body.data.model, 'openai/gpt-test');
      assert.equal(gen.body.data.tokens_prompt, FAKE_USAGE.prompt_tokens);
      assert.ok(near(gen.body.data.total_cost as number, ONE_CALL));
      const other = await newKey({});
      assert.equal(
        (await call(gw.server, 'GET', `/generation?id=${a.body.id}`, { token: other.key })).status,
        404,
        "another key's generation",
      );
    });

    it('exposes Prometheus metrics to management keys only', async () => {
      const res = await fetch(`${gw.server.api}/metrics`, {
        headers: { authorization: `Bearer ${gw.server.managementToken}` },
      });
      assert.equal(res.status, 200);
      const text = await res.text();
      assert.match(text, /switchyard_model_calls_total\{[^}]*provider="fake-openai"[^}]*\} \d+/);
      assert.match(text, /switchyard_cost_usd_total/);
      assert.match(text, /switchyard_http_request_duration_seconds_bucket/);
      assert.ok(!text.includes(gw.apiKey), 'no token in metrics');
      const other = await newKey({});
      assert.equal(
        (await fetch(`${gw.server.api}/metrics`, { headers: { authorization: `Bearer ${other.key}` } })).status,
        403,
      );
    });

    it('a key whose limit is spent gets 402', async () => {
      const key = await newKey({ limit: ONE_CALL * 2.5 });
      const statuses: number[] = [];
      for (let i = 0; i < 5; i++) statuses.push((await chat(key.key)).status);
      assert.ok(statuses.includes(402), statuses.join(','));
      assert.equal(statuses.filter((s) => s === 200).length <= 3, true);
      const info = await call<{ data: { limit_remaining: number } }>(gw.server, 'GET', '/key', { token: key.key });
      assert.ok(info.body.data.limit_remaining < ONE_CALL);
    });

    it('50 concurrent calls against a small limit overspend by at most one request', async () => {
      const limit = ONE_CALL * 5;
      const key = await newKey({ limit });
      const results = await Promise.all(Array.from({ length: 50 }, () => chat(key.key)));
      const ok = results.filter((r) => r.status === 200);
      const spent = ok.reduce((n, r) => n + r.body.usage.cost, 0);
      assert.ok(results.every((r) => r.status === 200 || r.status === 402));
      assert.ok(spent <= limit + ONE_CALL + 1e-12, `spent ${spent} > ${limit} + one call`);
      assert.ok(ok.length >= 1);
    });
  });
}
