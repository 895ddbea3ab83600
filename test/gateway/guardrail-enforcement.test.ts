import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { FAKE_USAGE } from '../fake-upstream/index.js';
import { MutableClock } from '../support/clock.js';
import { PRICES, startGateway, type GatewayHarness } from '../support/gateway.js';
import { call, dialects } from '../support/server.js';

const ONE_CALL =
  FAKE_USAGE.prompt_tokens * PRICES.primary.prompt + FAKE_USAGE.completion_tokens * PRICES.primary.completion;

interface ErrorBody {
  error?: { code: number; message: string; metadata?: Record<string, unknown> };
  usage?: { cost: number };
}

for (const dialect of dialects()) {
  describe(`guardrail enforcement (${dialect})`, () => {
    const clock = new MutableClock('2026-11-22T10:00:00Z');
    let gw: GatewayHarness;
    const mgmt = () => gw.server.managementToken;

    const newKey = async () => {
      const res = await call<{ key: string; data: { hash: string; creator_user_id: string } }>(
        gw.server,
        'POST',
        '/keys',
        { token: mgmt(), body: { name: 'enforced' } },
      );
      assert.equal(res.status, 201);
      return { token: res.body.key, hash: res.body.data.hash, member: res.body.data.creator_user_id };
    };
    const guardrail = async (body: Record<string, unknown>) => {
      const res = await call<{ data: { id: string } }>(gw.server, 'POST', '/guardrails', {
        token: mgmt(),
        body: { name: `g-${Math.random()}`, ...body },
      });
      assert.equal(res.status, 201, JSON.stringify(res.body));
      return res.body.data.id;
    };
    const assignKey = async (id: string, hash: string) =>
      assert.equal(
        (
          await call(gw.server, 'POST', `/guardrails/${id}/assignments/keys`, {
            token: mgmt(),
            body: { key_hashes: [hash] },
          })
        ).status,
        200,
      );
    const assignMember = async (id: string, userId: string) =>
      assert.equal(
        (
          await call(gw.server, 'POST', `/guardrails/${id}/assignments/members`, {
            token: mgmt(),
            body: { member_user_ids: [userId] },
          })
        ).status,
        200,
      );
    const chat = (token: string, model: string, extra: Record<string, unknown> = {}) =>
      call<ErrorBody>(gw.server, 'POST', '/chat/completions', {
        token,
        body: { model, max_tokens: 10, messages: [{ role: 'user', content: 'hi' }], ...extra },
      });
    /** One endpoint only: the reservation estimate then stays below one call's real cost. */
    const paid = (token: string) => chat(token, 'openai/gpt-test', { provider: { allow_fallbacks: false } });
    /** The upstream model the fake received last: tells which endpoint served the call. */
    const servedBy = () => {
      const last = gw.fake.requests.at(-1);
      const body = last?.body as { model?: string } | null | undefined;
      return body?.model;
    };

    before(async () => {
      gw = await startGateway({ dialect, clock });
    });
    after(() => gw.close());
    beforeEach(() => gw.fake.reset());

    it('allowed_models narrows the models; a refused call is a 403 naming the rule and the guardrail', async () => {
      const key = await newKey();
      const id = await guardrail({ allowed_models: ['openai/gpt-test'] });
      await assignKey(id, key.hash);
      assert.equal((await chat(key.token, 'openai/gpt-test')).status, 200);
      const refused = await chat(key.token, 'anthropic/claude-test');
      assert.equal(refused.status, 403);
      assert.match(refused.body.error?.message ?? '', /allowed_models/);
      assert.equal(refused.body.error?.metadata?.rule, 'allowed_models');
      assert.deepEqual(refused.body.error?.metadata?.guardrail_ids, [id]);
      assert.equal(gw.fake.requests.length, 1, 'the refused call never reached an upstream');
    });

    it('ignored_models on the creator member applies to every key the member made', async () => {
      const key = await newKey();
      const id = await guardrail({ ignored_models: ['anthropic/claude-test'] });
      await assignMember(id, key.member);
      const refused = await chat(key.token, 'anthropic/claude-test');
      assert.equal(refused.status, 403);
      assert.equal(refused.body.error?.metadata?.rule, 'ignored_models');
      assert.equal((await chat(key.token, 'openai/gpt-test')).status, 200);
      await call(gw.server, 'POST', `/guardrails/${id}/assignments/members/remove`, {
        token: mgmt(),
        body: { member_user_ids: [key.member] },
      });
      assert.equal(
        (await chat(key.token, 'anthropic/claude-test')).status,
        200,
        'unassigning applies to the very next request',
      );
    });

    it('allowed_providers (by display name) and ignored_providers steer which endpoint serves', async () => {
      const key = await newKey();
      const id = await guardrail({ allowed_providers: ['Fake OpenAI B'] });
      await assignKey(id, key.hash);
      assert.equal((await chat(key.token, 'openai/gpt-test')).status, 200);
      assert.equal(servedBy(), 'gpt-test-b', 'only the allowed provider served');
      const refused = await chat(key.token, 'anthropic/claude-test');
      assert.equal(refused.status, 403);
      assert.equal(refused.body.error?.metadata?.rule, 'allowed_providers');

      assert.equal(
        (
          await call(gw.server, 'PATCH', `/guardrails/${id}`, {
            token: mgmt(),
            body: { allowed_providers: null, ignored_providers: ['fake-openai'] },
          })
        ).status,
        200,
      );
      assert.equal((await chat(key.token, 'openai/gpt-test', { provider: { order: ['fake-openai'] } })).status, 200);
      assert.equal(servedBy(), 'gpt-test-b', 'the ignored provider is skipped even when preferred');
    });

    it('several guardrails combine: allow lists intersect (key, member, workspace default)', async () => {
      const key = await newKey();
      const mine = await guardrail({ allowed_models: ['openai/gpt-test', 'anthropic/claude-test'] });
      const members = await guardrail({ allowed_models: ['anthropic/claude-test', 'google/gemini-test'] });
      await assignKey(mine, key.hash);
      await assignMember(members, key.member);
      assert.equal((await chat(key.token, 'anthropic/claude-test')).status, 200);
      const refused = await chat(key.token, 'openai/gpt-test');
      assert.equal(refused.status, 403);
      assert.deepEqual(new Set(refused.body.error?.metadata?.guardrail_ids as string[]), new Set([mine, members]));
      assert.equal((await chat(key.token, 'google/gemini-test')).status, 403);
      // The workspace default guardrail applies to every key of the workspace.
      const ws = await call<{ data: { default_guardrail_id: string } }>(gw.server, 'GET', '/workspaces/default', {
        token: mgmt(),
      });
      const defaultId = ws.body.data.default_guardrail_id;
      assert.equal(
        (
          await call(gw.server, 'PATCH', `/guardrails/${defaultId}`, {
            token: mgmt(),
            body: { ignored_models: ['anthropic/claude-test'] },
          })
        ).status,
        200,
      );
      assert.equal((await chat(key.token, 'anthropic/claude-test')).status, 403);
      const fresh = await newKey();
      assert.equal(
        (await chat(fresh.token, 'anthropic/claude-test')).status,
        403,
        'a key without assignments gets the default',
      );
      assert.equal((await call(gw.server, 'DELETE', `/guardrails/${defaultId}`, { token: mgmt() })).status, 200);
      assert.equal((await chat(fresh.token, 'anthropic/claude-test')).status, 200);
      await call(gw.server, 'DELETE', `/guardrails/${members}`, { token: mgmt() });
    });

    it('ZDR for a vendor group: only zdr endpoints serve its models; others are refused', async () => {
      const key = await newKey();
      const id = await guardrail({ enforce_zdr_openai: true });
      await assignKey(id, key.hash);
      assert.equal((await chat(key.token, 'openai/gpt-test', { provider: { order: ['fake-openai-b'] } })).status, 200);
      assert.equal(servedBy(), 'gpt-test', 'served by the zdr endpoint although the other was preferred');
      assert.equal((await chat(key.token, 'google/gemini-test')).status, 200, 'google is another group: not enforced');
      await call(gw.server, 'PATCH', `/guardrails/${id}`, { token: mgmt(), body: { enforce_zdr: true } });
      const refused = await chat(key.token, 'google/gemini-test');
      assert.equal(refused.status, 403);
      assert.equal(refused.body.error?.metadata?.rule, 'zdr');
    });

    it('limit_usd per key with a daily window: 403 when spent, open again the next UTC day', async () => {
      const key = await newKey();
      const id = await guardrail({ limit_usd: ONE_CALL * 2.5, reset_interval: 'daily' });
      await assignKey(id, key.hash);
      const statuses: number[] = [];
      for (let i = 0; i < 5; i++) statuses.push((await paid(key.token)).status);
      assert.deepEqual(statuses.slice(0, 2), [200, 200]);
      assert.equal(statuses.at(-1), 403, statuses.join(','));
      const refused = await paid(key.token);
      assert.equal(refused.body.error?.metadata?.rule, 'limit_usd');
      assert.equal(refused.body.error?.metadata?.guardrail_id, id);
      clock.advance(24 * 3600 * 1000);
      assert.equal((await paid(key.token)).status, 200, 'a new day, a new window');
    });

    it('limit_usd with reset_interval null never resets', async () => {
      const key = await newKey();
      const id = await guardrail({ limit_usd: ONE_CALL * 1.5, reset_interval: null });
      await assignKey(id, key.hash);
      assert.equal((await paid(key.token)).status, 200);
      assert.equal((await paid(key.token)).status, 403);
      clock.advance(40 * 24 * 3600 * 1000);
      assert.equal((await paid(key.token)).status, 403);
    });

    it("a member's limit counts the spend of all the member's keys; each key's own copy is separate", async () => {
      const a = await newKey();
      const b = await newKey();
      assert.equal(a.member, b.member);
      const perMember = await guardrail({ limit_usd: 1_000_000, reset_interval: 'monthly' });
      await assignMember(perMember, a.member);
      assert.equal((await paid(a.token)).status, 200);
      // Tighten the member budget to what has been spent this month plus one and a half calls.
      const spent = await memberSpendThisMonth();
      await call(gw.server, 'PATCH', `/guardrails/${perMember}`, {
        token: mgmt(),
        body: { limit_usd: spent + ONE_CALL * 1.5, reset_interval: 'monthly' },
      });
      assert.equal((await paid(b.token)).status, 200);
      const refused = await paid(a.token);
      assert.equal(refused.status, 403);
      assert.equal(refused.body.error?.metadata?.assignee, 'member');
      await call(gw.server, 'DELETE', `/guardrails/${perMember}`, { token: mgmt() });
      assert.equal((await paid(a.token)).status, 200, 'deleting the guardrail lifts its budget at once');
    });

    async function memberSpendThisMonth(): Promise<number> {
      const listed = await call<{ data: { usage_monthly: number; creator_user_id: string }[] }>(
        gw.server,
        'GET',
        '/keys?limit=100',
        { token: mgmt() },
      );
      return listed.body.data.reduce((n, k) => n + k.usage_monthly, 0);
    }

    it('40 concurrent calls against a guardrail budget overspend by at most one request', async () => {
      const key = await newKey();
      const limit = ONE_CALL * 4;
      const id = await guardrail({ limit_usd: limit, reset_interval: 'weekly' });
      await assignKey(id, key.hash);
      const results = await Promise.all(
        Array.from({ length: 40 }, () => chat(key.token, 'openai/gpt-test', { provider: { allow_fallbacks: false } })),
      );
      assert.ok(
        results.every((r) => r.status === 200 || r.status === 403),
        results.map((r) => r.status).join(','),
      );
      const spent = results.filter((r) => r.status === 200).reduce((n, r) => n + (r.body.usage?.cost ?? 0), 0);
      assert.ok(spent <= limit + ONE_CALL + 1e-12, `spent ${spent} > ${limit} + one call`);
      assert.ok(results.some((r) => r.status === 403));
    });

    it("a key's own limit still answers 402, and the lower of the two limits wins", async () => {
      const res = await call<{ key: string; data: { hash: string } }>(gw.server, 'POST', '/keys', {
        token: mgmt(),
        body: { name: 'both', limit: ONE_CALL * 1.5 },
      });
      const id = await guardrail({ limit_usd: 100, reset_interval: 'monthly' });
      await assignKey(id, res.body.data.hash);
      assert.equal((await paid(res.body.key)).status, 200);
      assert.equal((await paid(res.body.key)).status, 402);
    });
  });
}
