import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { FAKE_USAGE } from '../fake-upstream/index.js';
import { MutableClock } from '../support/clock.js';
import { startGateway, type GatewayHarness } from '../support/gateway.js';
import { call, dialects } from '../support/server.js';

interface Answer {
  error?: { code: number; message: string; metadata?: Record<string, unknown> };
  data?: Record<string, unknown>;
}

for (const dialect of dialects()) {
  describe(`guardrail rate limits (${dialect})`, () => {
    // Mid-minute, so a run never straddles a window boundary.
    const clock = new MutableClock('2026-11-22T10:00:10Z');
    let gw: GatewayHarness;
    const mgmt = () => gw.server.managementToken;

    const newKey = async () => {
      const res = await call<{ key: string; data: { hash: string; creator_user_id: string } }>(
        gw.server,
        'POST',
        '/keys',
        { token: mgmt(), body: { name: 'rated' } },
      );
      assert.equal(res.status, 201);
      return { token: res.body.key, hash: res.body.data.hash, member: res.body.data.creator_user_id };
    };
    const guardrail = async (body: Record<string, unknown>) => {
      const res = await call<{ data: Record<string, unknown> & { id: string } }>(gw.server, 'POST', '/guardrails', {
        token: mgmt(),
        body: { name: `rl-${Math.random()}`, ...body },
      });
      assert.equal(res.status, 201, JSON.stringify(res.body));
      return res.body.data;
    };
    const assign = async (id: string, hash: string) =>
      assert.equal(
        (
          await call(gw.server, 'POST', `/guardrails/${id}/assignments/keys`, {
            token: mgmt(),
            body: { key_hashes: [hash] },
          })
        ).status,
        200,
      );
    const chat = (token: string) =>
      call<Answer>(gw.server, 'POST', '/chat/completions', {
        token,
        body: { model: 'openai/gpt-test', messages: [{ role: 'user', content: 'hi' }] },
      });

    before(async () => {
      gw = await startGateway({ dialect, clock });
    });
    after(() => gw.close());

    it('requests_per_minute: the sixth call in a minute is a 429 with Retry-After and X-RateLimit headers', async () => {
      const g = await guardrail({ requests_per_minute: 5 });
      assert.equal(g.requests_per_minute, 5);
      assert.equal(g.tokens_per_minute, null);
      const key = await newKey();
      await assign(g.id, key.hash);
      for (let i = 0; i < 5; i++) assert.equal((await chat(key.token)).status, 200, `call ${i + 1}`);
      const refused = await chat(key.token);
      assert.equal(refused.status, 429);
      assert.equal(refused.body.error?.code, 429);
      assert.equal(refused.body.error?.metadata?.rule, 'requests_per_minute');
      assert.equal(refused.body.error?.metadata?.guardrail_id, g.id);
      assert.equal(refused.headers.get('retry-after'), '50');
      assert.equal(refused.headers.get('x-ratelimit-limit'), '5');
      assert.equal(refused.headers.get('x-ratelimit-remaining'), '0');
      assert.equal(refused.headers.get('x-ratelimit-reset'), String(Date.parse('2026-11-22T10:01:00Z') / 1000));
      assert.equal(refused.headers.get('x-generation-id'), null, 'a refused call has no generation');
      // Another key is not limited by this one's count.
      const other = await newKey();
      assert.equal((await chat(other.token)).status, 200);
      // The next minute starts a new count.
      clock.advance(60_000);
      assert.equal((await chat(key.token)).status, 200);
    });

    it('tokens_per_minute: calls are admitted while the minute is under the limit', async () => {
      const perCall = FAKE_USAGE.prompt_tokens + FAKE_USAGE.completion_tokens;
      const g = await guardrail({ tokens_per_minute: perCall + 1 });
      const key = await newKey();
      await assign(g.id, key.hash);
      assert.equal((await chat(key.token)).status, 200);
      assert.equal((await chat(key.token)).status, 200, 'the minute is one token short of the limit');
      const refused = await chat(key.token);
      assert.equal(refused.status, 429);
      assert.equal(refused.body.error?.metadata?.rule, 'tokens_per_minute');
      assert.equal(refused.headers.get('x-ratelimit-limit'), String(perCall + 1));
    });

    it('limits can be changed and removed; bad values are a 400', async () => {
      const g = await guardrail({ requests_per_minute: 1 });
      const patched = await call<{ data: Record<string, unknown> }>(gw.server, 'PATCH', `/guardrails/${g.id}`, {
        token: mgmt(),
        body: { requests_per_minute: null, tokens_per_minute: 1000 },
      });
      assert.equal(patched.status, 200);
      assert.equal(patched.body.data.requests_per_minute, null);
      assert.equal(patched.body.data.tokens_per_minute, 1000);
      for (const bad of [0, -1, 1.5, '5'])
        assert.equal(
          (
            await call(gw.server, 'POST', '/guardrails', {
              token: mgmt(),
              body: { name: 'bad', requests_per_minute: bad },
            })
          ).status,
          400,
        );
    });
  });
}
