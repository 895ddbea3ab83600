import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import Anthropic from '@anthropic-ai/sdk';
import { call, dialects } from '../support/server.js';
import { startGateway, testCatalog, type GatewayHarness } from '../support/gateway.js';

const ANTHROPIC_ERROR_TYPES = new Set([
  'invalid_request_error',
  'authentication_error',
  'permission_error',
  'not_found_error',
  'request_too_large',
  'rate_limit_error',
  'billing_error',
  'api_error',
  'overloaded_error',
]);

function aliasedCatalog(fakeUrl: string): Record<string, unknown> {
  const catalog = testCatalog(fakeUrl);
  const models = (catalog.models as Record<string, unknown>[]).map((m) =>
    m.slug === 'anthropic/claude-test' ? { ...m, aliases: ['claude-sonnet-4-5-20250929'] } : m,
  );
  return { ...catalog, models };
}

/** Status and body of a raw POST, for the exact error shape. */
async function post(gw: GatewayHarness, path: string, headers: Record<string, string>, body: unknown) {
  const res = await fetch(`${gw.server.api}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'anthropic-version': '2023-06-01', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

function assertAnthropicError(body: Record<string, unknown>, type: string): void {
  assert.equal(body.type, 'error', JSON.stringify(body));
  const error = body.error as { type: string; message: string };
  assert.equal(error.type, type);
  assert.ok(ANTHROPIC_ERROR_TYPES.has(error.type));
  assert.equal(typeof error.message, 'string');
  assert.deepEqual(Object.keys(body).sort(), ['error', 'type']);
}

// Counting touches no table beyond the key; one dialect suffices.
for (const dialect of dialects().slice(0, 1)) {
  describe(`POST /messages/count_tokens (${dialect})`, () => {
    let gw: GatewayHarness;
    let client: Anthropic;
    before(async () => {
      gw = await startGateway({ dialect, catalog: aliasedCatalog });
      client = new Anthropic({ apiKey: gw.apiKey, baseURL: `${gw.server.url}/api`, maxRetries: 0 });
    });
    after(() => gw.close());

    it('counts with the official SDK (x-api-key), more for longer input, tools and images; no upstream call', async () => {
      const before = gw.fake.requests.length;
      const short = await client.messages.countTokens({
        model: 'claude-sonnet-4-5-20250929',
        messages: [{ role: 'user', content: 'Hello there' }],
      });
      assert.ok(short.input_tokens > 0 && short.input_tokens < 10, String(short.input_tokens));
      const long = await client.messages.countTokens({
        model: 'anthropic/claude-test',
        system: [{ type: 'text', text: 'You are terse.' }],
        messages: [
          { role: 'user', content: [{ type: 'text', text: 'Hello there, what is the weather in Paris?' }] },
          {
            role: 'assistant',
            content: [{ type: 'tool_use', id: 'toolu_1', name: 'weather', input: { city: 'Paris' } }],
          },
          {
            role: 'user',
            content: [
              { type: 'tool_result', tool_use_id: 'toolu_1', content: 'sunny, 21 degrees' },
              { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' } },
            ],
          },
        ],
        tools: [{ name: 'weather', description: 'Weather of a city', input_schema: { type: 'object' } }],
      });
      assert.ok(long.input_tokens > short.input_tokens + 1600, String(long.input_tokens));
      assert.equal(gw.fake.requests.length, before, 'counting calls no upstream');
    });

    it('counts text holding special-token strings (<|endoftext|>, <|im_start|>) as text, never a 500', async () => {
      const plain = await client.messages.countTokens({
        model: 'anthropic/claude-test',
        messages: [{ role: 'user', content: 'say endoftext now' }],
      });
      const special = await client.messages.countTokens({
        model: 'anthropic/claude-test',
        messages: [{ role: 'user', content: 'say <|endoftext|> now <|im_start|>' }],
      });
      assert.ok(special.input_tokens > plain.input_tokens, `${special.input_tokens} vs ${plain.input_tokens}`);
    });

    it('accepts Authorization: Bearer (ANTHROPIC_AUTH_TOKEN) and the anthropic-beta header', async () => {
      const bearer = new Anthropic({ authToken: gw.apiKey, apiKey: null, baseURL: `${gw.server.url}/api` });
      const res = await bearer.messages.countTokens(
        { model: 'anthropic/claude-test', messages: [{ role: 'user', content: 'hi' }] },
        { headers: { 'anthropic-beta': 'token-counting-2024-11-01' } },
      );
      assert.ok(res.input_tokens > 0);
    });

    it('auth failures are Anthropic errors the SDK maps to its classes', async () => {
      const wrong = new Anthropic({ apiKey: 'sk-sy-v1-not-a-key', baseURL: `${gw.server.url}/api`, maxRetries: 0 });
      await assert.rejects(
        wrong.messages.countTokens({ model: 'anthropic/claude-test', messages: [{ role: 'user', content: 'hi' }] }),
        (e) => e instanceof Anthropic.AuthenticationError && e.type === 'authentication_error',
      );
      const missing = await post(gw, '/messages/count_tokens', {}, { model: 'a', messages: [] });
      assert.equal(missing.status, 401);
      assertAnthropicError(missing.body, 'authentication_error');
      const management = await post(gw, '/messages/count_tokens', { 'x-api-key': gw.server.managementToken }, {});
      assert.equal(management.status, 403);
      assertAnthropicError(management.body, 'permission_error');
    });

    it('bad bodies are invalid_request_error naming the field; unknown models not_found_error', async () => {
      const auth = { 'x-api-key': gw.apiKey };
      const noMessages = await post(gw, '/messages/count_tokens', auth, { model: 'anthropic/claude-test' });
      assert.equal(noMessages.status, 400);
      assertAnthropicError(noMessages.body, 'invalid_request_error');
      assert.match((noMessages.body.error as { message: string }).message, /messages/);
      const badJson = await post(gw, '/messages/count_tokens', auth, '{"model":');
      assert.equal(badJson.status, 400);
      assertAnthropicError(badJson.body, 'invalid_request_error');
      const unknown = await post(gw, '/messages/count_tokens', auth, {
        model: 'claude-unknown',
        messages: [{ role: 'user', content: 'hi' }],
      });
      assert.equal(unknown.status, 404);
      assertAnthropicError(unknown.body, 'not_found_error');
      await assert.rejects(
        client.messages.countTokens({ model: 'nope/nope', messages: [{ role: 'user', content: 'hi' }] }),
        (e) => e instanceof Anthropic.NotFoundError && e.type === 'not_found_error',
      );
    });

    it("a model the key's guardrails exclude is a permission_error, alias or slug alike", async () => {
      const mgmt = gw.server.managementToken;
      const key = await call<{ key: string; data: { hash: string } }>(gw.server, 'POST', '/keys', {
        token: mgmt,
        body: { name: 'gpt-only' },
      });
      const g = await call<{ data: { id: string } }>(gw.server, 'POST', '/guardrails', {
        token: mgmt,
        body: { name: 'gpt-only', allowed_models: ['openai/gpt-test'] },
      });
      await call(gw.server, 'POST', `/guardrails/${g.body.data.id}/assignments/keys`, {
        token: mgmt,
        body: { key_hashes: [key.body.data.hash] },
      });
      const limited = new Anthropic({ apiKey: key.body.key, baseURL: `${gw.server.url}/api`, maxRetries: 0 });
      for (const model of ['claude-sonnet-4-5-20250929', 'anthropic/claude-test'])
        await assert.rejects(
          limited.messages.countTokens({ model, messages: [{ role: 'user', content: 'hi' }] }),
          (e) => e instanceof Anthropic.PermissionDeniedError && e.type === 'permission_error',
        );
      const allowed = await limited.messages.countTokens({
        model: 'openai/gpt-test',
        messages: [{ role: 'user', content: 'hi' }],
      });
      assert.ok(allowed.input_tokens > 0);
      // The rest of the API keeps Switchyard's envelope.
      const chat = await post(gw, '/chat/completions', { 'x-api-key': 'nope' }, {});
      assert.equal(chat.status, 401);
      assert.equal((chat.body.error as { code: number }).code, 401);
    });
  });
}
