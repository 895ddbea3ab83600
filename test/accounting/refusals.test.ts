import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { MutableClock } from '../support/clock.js';
import { startGateway, type GatewayHarness } from '../support/gateway.js';
import { call, dialects } from '../support/server.js';

interface Row {
  id: string;
  key_hash: string;
  model: string;
  status: string;
  refusal: { status: number; code: string; message: string; details: Record<string, unknown>; count: number } | null;
}
interface Page {
  data: Row[];
  next_cursor: string | null;
}
interface Usage {
  data: { totals: { requests: number; errors: number; refused: number } };
}

/** Text sent in every refused prompt: it must never reach the store. */
const PROMPT = 'SECRET-PROMPT-TEXT-7f3a';
const body = (model: string, extra: Record<string, unknown> = {}) => ({
  model,
  messages: [{ role: 'user', content: PROMPT }],
  ...extra,
});

for (const dialect of dialects()) {
  describe(`refused model calls are recorded and shown (${dialect})`, () => {
    // Mid-minute, so the rate windows of a run never straddle a minute.
    const clock = new MutableClock('2026-11-26T10:00:10.000Z');
    let gw: GatewayHarness;
    const mgmt = () => gw.server.managementToken;
    const services = () => gw.server.running.services;

    const newKey = async (name: string, extra: Record<string, unknown> = {}) => {
      const res = await call<{ key: string; data: { hash: string } }>(gw.server, 'POST', '/keys', {
        token: mgmt(),
        body: { name, ...extra },
      });
      assert.equal(res.status, 201, JSON.stringify(res.body));
      return { token: res.body.key, hash: res.body.data.hash };
    };
    const guardrail = async (fields: Record<string, unknown>, keyHash: string) => {
      const res = await call<{ data: { id: string } }>(gw.server, 'POST', '/guardrails', {
        token: mgmt(),
        body: { name: `g-${Math.random()}`, ...fields },
      });
      assert.equal(res.status, 201, JSON.stringify(res.body));
      const assigned = await call(gw.server, 'POST', `/guardrails/${res.body.data.id}/assignments/keys`, {
        token: mgmt(),
        body: { key_hashes: [keyHash] },
      });
      assert.equal(assigned.status, 200);
      return res.body.data.id;
    };
    const chat = (token: string, payload: unknown) =>
      call<{ error?: { code: number } }>(gw.server, 'POST', '/chat/completions', { token, body: payload });
    const list = async (query: string) => {
      const res = await call<Page>(gw.server, 'GET', `/generations?limit=200&${query}`, { token: mgmt() });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      return res.body.data;
    };

    let plain: { token: string; hash: string };
    let guarded: { token: string; hash: string };
    let broke: { token: string; hash: string };
    let rated: { token: string; hash: string };
    let guardrailId = '';

    before(async () => {
      gw = await startGateway({
        dialect,
        clock,
        env: { SWITCHYARD_BODY_LIMIT_BYTES: '4096', SWITCHYARD_REFUSALS_PER_KEY_PER_MINUTE: '10' },
      });
      plain = await newKey('plain');
      guarded = await newKey('guarded');
      broke = await newKey('broke', { limit: 0.000001 });
      rated = await newKey('rated');
      guardrailId = await guardrail({ allowed_models: ['anthropic/claude-test'] }, guarded.hash);
      await guardrail({ requests_per_minute: 1 }, rated.hash);

      assert.equal((await chat(plain.token, body('openai/gpt-test'))).status, 200);
      assert.equal((await chat(plain.token, body('nobody/no-such-model'))).status, 404);
      assert.equal((await chat(plain.token, { model: 'openai/gpt-test', messages: PROMPT })).status, 400);
      const big = await chat(plain.token, body('openai/gpt-test', { user: 'x'.repeat(8000) }));
      assert.equal(big.status, 413);
      assert.equal((await chat(guarded.token, body('openai/gpt-test'))).status, 403);
      assert.equal((await chat(broke.token, body('openai/gpt-test'))).status, 402);
      assert.equal((await chat(rated.token, body('openai/gpt-test'))).status, 200);
      assert.equal((await chat(rated.token, body('openai/gpt-test'))).status, 429);
      await services().meter.flush();
    });
    after(() => gw.close());

    it('lists each kind of refusal under status=refused, with its reason', async () => {
      const refused = await list('status=refused');
      assert.deepEqual(refused.map((r) => r.refusal?.status).sort(), [400, 402, 403, 404, 413, 429]);
      for (const r of refused) {
        assert.equal(r.status, 'refused');
        assert.equal(r.refusal?.count, 1);
        assert.equal(r.refusal?.details.path, '/api/v1/chat/completions');
      }
      const byStatus = (s: number) => refused.find((r) => r.refusal?.status === s);
      assert.equal(byStatus(402)?.key_hash, broke.hash);
      assert.equal(byStatus(402)?.refusal?.code, 'payment_required');
      assert.equal(byStatus(403)?.key_hash, guarded.hash);
      assert.deepEqual(byStatus(403)?.refusal?.details.guardrail_ids, [guardrailId]);
      assert.equal(byStatus(404)?.model, 'nobody/no-such-model');
      assert.equal(byStatus(429)?.refusal?.details.rule, 'requests_per_minute');
      assert.equal(byStatus(413)?.model, '', 'a body refused unread names no model');

      const only402 = await list('http_status=402');
      assert.deepEqual(
        only402.map((r) => r.key_hash),
        [broke.hash],
      );
      const errorsToo = await list('status=error');
      assert.equal(errorsToo.length, 6, 'status=error counts refusals as errors');
      const succeeded = await list('status=success');
      assert.equal(succeeded.length, 2);
      assert.ok(succeeded.every((r) => r.refusal === null));
    });

    it('shows the refusal in the generation detail, and an API key sees only its own', async () => {
      const [row] = await list('http_status=403');
      assert.ok(row);
      const detail = await call<{ data: { refusal: Row['refusal']; finish_reason: string } }>(
        gw.server,
        'GET',
        `/generations/${row.id}`,
        { token: mgmt() },
      );
      assert.equal(detail.status, 200);
      assert.equal(detail.body.data.finish_reason, 'error');
      assert.equal(detail.body.data.refusal?.status, 403);
      assert.match(detail.body.data.refusal?.message ?? '', /guardrail/i);
      const own = await call<Page>(gw.server, 'GET', '/generations?status=refused', { token: guarded.token });
      assert.deepEqual(
        own.body.data.map((r) => r.refusal?.status),
        [403],
      );
      const other = await call(gw.server, 'GET', `/generations/${row.id}`, { token: plain.token });
      assert.equal(other.status, 404);
    });

    it('counts refusals as errors in the overview', async () => {
      const usage = await call<Usage>(gw.server, 'GET', '/analytics/usage?range=24h', { token: mgmt() });
      assert.equal(usage.status, 200);
      assert.deepEqual(usage.body.data.totals, { ...usage.body.data.totals, requests: 8, errors: 6, refused: 6 });
      const month = await call<Usage>(gw.server, 'GET', '/analytics/usage?range=30d', { token: mgmt() });
      assert.equal(month.body.data.totals.refused, 6);
    });

    it('never stores the prompt of a refused call', async () => {
      const rows = await list('status=refused');
      for (const r of rows) {
        const detail = await call(gw.server, 'GET', `/generations/${r.id}`, { token: mgmt() });
        assert.ok(!JSON.stringify(detail.body).includes(PROMPT));
      }
    });

    it('bounds a refusal flood per key while a valid caller is recorded in full', async () => {
      const flooder = await newKey('flooder');
      const valid = await newKey('valid');
      const before = (await list(`key_hash=${valid.hash}`)).length;
      const refusedCalls: Promise<{ status: number }>[] = [];
      const validCalls: Promise<{ status: number }>[] = [];
      for (let i = 0; i < 150; i++) {
        refusedCalls.push(chat(flooder.token, body('nobody/flood')));
        if (i % 5 === 0) validCalls.push(chat(valid.token, body('openai/gpt-test')));
        if (i % 25 === 24) await Promise.all(refusedCalls.slice(-25));
      }
      assert.ok((await Promise.all(refusedCalls)).every((r) => r.status === 404));
      assert.ok((await Promise.all(validCalls)).every((r) => r.status === 200));
      // The minute ends: its summed row is written.
      clock.advance(60_000);
      services().refusals.writeFinishedMinutes();
      await services().meter.flush();

      const flood = await list(`key_hash=${flooder.hash}`);
      assert.equal(flood.length, 11, '10 rows of their own and one summed row');
      const summed = flood.filter((r) => (r.refusal?.count ?? 1) > 1);
      assert.equal(summed.length, 1);
      assert.equal(summed[0]?.refusal?.count, 140);
      assert.equal(
        flood.reduce((n, r) => n + (r.refusal?.count ?? 0), 0),
        150,
      );
      const validRows = await list(`key_hash=${valid.hash}`);
      assert.equal(validRows.length - before, 30, 'every valid call is recorded');
      assert.ok(validRows.every((r) => r.status === 'success'));

      const usage = await call<Usage>(gw.server, 'GET', '/analytics/usage?range=24h', { token: mgmt() });
      assert.equal(usage.body.data.totals.refused, 6 + 150, 'the rollups count every refusal');
      assert.equal(usage.body.data.totals.requests, 8 + 150 + 30);
    });
  });
}
