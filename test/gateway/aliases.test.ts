import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { FAKE_USAGE } from '../fake-upstream/index.js';
import { call, dialects } from '../support/server.js';
import { startGateway, testCatalog, type GatewayHarness } from '../support/gateway.js';

/** The test catalog with vendor model names as aliases. */
function aliasedCatalog(fakeUrl: string): Record<string, unknown> {
  const catalog = testCatalog(fakeUrl);
  const models = catalog.models as Record<string, unknown>[];
  return {
    ...catalog,
    models: models.map((m) =>
      m.slug === 'anthropic/claude-test'
        ? { ...m, aliases: ['claude-sonnet-4-5-20250929'] }
        : m.slug === 'openai/gpt-test'
          ? { ...m, aliases: ['gpt-4o-mini'] }
          : m,
    ),
  };
}

interface Answer {
  id: string;
  model: string;
  error?: { code: number; message: string };
}

// One dialect is enough: the alias is resolved in memory; the store only records the result.
for (const dialect of dialects().slice(0, 1)) {
  describe(`model aliases end to end (${dialect})`, () => {
    let gw: GatewayHarness;
    before(async () => {
      gw = await startGateway({ dialect, catalog: aliasedCatalog });
    });
    after(() => gw.close());

    const chat = (token: string, model: string) =>
      call<Answer>(gw.server, 'POST', '/chat/completions', {
        token,
        body: { model, max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] },
      });

    it('a vendor model name is served by the real model, which the answer and the generation record name', async () => {
      const res = await chat(gw.apiKey, 'claude-sonnet-4-5-20250929');
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.equal(res.body.model, 'anthropic/claude-test');
      assert.equal((gw.fake.requests.at(-1)?.body as { model?: string }).model, 'claude-test');
      const gen = await call<{ data: { model: string; tokens_prompt: number } }>(
        gw.server,
        'GET',
        `/generation?id=${res.body.id}`,
        { token: gw.apiKey },
      );
      assert.equal(gen.status, 200);
      assert.equal(gen.body.data.model, 'anthropic/claude-test');
      assert.equal(gen.body.data.tokens_prompt, FAKE_USAGE.prompt_tokens);
    });

    it('guardrails judge the real model, not the alias', async () => {
      const key = await call<{ key: string; data: { hash: string } }>(gw.server, 'POST', '/keys', {
        token: gw.server.managementToken,
        body: { name: 'only-gpt' },
      });
      const guardrail = await call<{ data: { id: string } }>(gw.server, 'POST', '/guardrails', {
        token: gw.server.managementToken,
        body: { name: 'only-gpt', allowed_models: ['openai/gpt-test'] },
      });
      assert.equal(guardrail.status, 201, JSON.stringify(guardrail.body));
      const assigned = await call(gw.server, 'POST', `/guardrails/${guardrail.body.data.id}/assignments/keys`, {
        token: gw.server.managementToken,
        body: { key_hashes: [key.body.data.hash] },
      });
      assert.equal(assigned.status, 200);
      assert.equal((await chat(key.body.key, 'claude-sonnet-4-5-20250929')).status, 403);
      const allowed = await chat(key.body.key, 'gpt-4o-mini');
      assert.equal(allowed.status, 200, JSON.stringify(allowed.body));
      assert.equal(allowed.body.model, 'openai/gpt-test');
    });
  });
}
