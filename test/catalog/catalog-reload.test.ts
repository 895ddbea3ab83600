import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { OpenRouter } from '@openrouter/sdk';
import { tempSqlitePath } from '../harness/env.js';
import { call, startTestServer, type TestServer } from '../support/server.js';

/** A demo provider that pauses between streamed pieces, so a stream is really in flight. */
function catalogFile(models: string[]): string {
  return JSON.stringify({
    providers: [{ id: 'demo', name: 'Demo', kind: 'demo', base_url: 'http://demo.local/?delay_ms=80', zdr: true }],
    models: models.map((slug) => ({
      slug,
      context_length: 8000,
      supported_parameters: ['max_tokens', 'temperature', 'tools', 'tool_choice'],
      endpoints: [{ provider: 'demo', upstream_model: 'echo', pricing: { prompt: 0.000001, completion: 0.000002 } }],
    })),
  });
}

const INVALID = `providers:
  - id: demo
    kind: demo
models:
  - slug: demo/broken
    context_length: 8000
    endpoints:
      - provider: nowhere
        upstream_model: echo
        pricing: { prompt: 0, completion: 0 }
`;

async function chat(server: TestServer, key: string, model: string) {
  return call<{ model?: string; error?: { code: number } }>(server, 'POST', '/chat/completions', {
    token: key,
    body: { model, messages: [{ role: 'user', content: 'hi' }] },
  });
}

describe('catalog reload (POST /catalog/reload) and GET /models/{author}/{slug}/endpoints', () => {
  const db = tempSqlitePath();
  const configPath = join(dirname(db.path), 'reload-catalog.json');
  let server: TestServer;
  let key = '';

  before(async () => {
    writeFileSync(configPath, catalogFile(['demo/slow']));
    server = await startTestServer({
      dialect: 'sqlite',
      db: { url: `sqlite:${db.path}`, dispose: () => Promise.resolve(db.cleanup()) },
      env: { SWITCHYARD_CONFIG: configPath },
    });
    const created = await call<{ key: string }>(server, 'POST', '/keys', {
      token: server.managementToken,
      body: { name: 'reload' },
    });
    key = created.body.key;
  });
  after(() => server.close());

  it('lists a model’s endpoints in the shape the OpenRouter SDK parses; the /models link resolves', async () => {
    const sdk = new OpenRouter({ apiKey: key, serverURL: server.api, retryConfig: { strategy: 'none' } });
    const listed = await sdk.endpoints.list({ author: 'demo', slug: 'slow' });
    assert.equal(listed.data.id, 'demo/slow');
    assert.equal(listed.data.endpoints.length, 1);
    const endpoint = listed.data.endpoints[0];
    assert.equal(endpoint?.tag, 'demo');
    assert.equal(endpoint?.providerName, 'Demo');
    assert.equal(endpoint?.pricing.prompt, '0.000001');
    assert.equal(endpoint?.status, 0);
    assert.equal(endpoint?.supportsToolChoice.auto, true);

    const models = await call<{ data: { id: string; links: { details: string } }[] }>(server, 'GET', '/models', {
      token: key,
    });
    const link = models.body.data[0]?.links.details ?? '';
    const followed = await fetch(`${server.url}${link}`, { headers: { authorization: `Bearer ${key}` } });
    assert.equal(followed.status, 200);

    const missing = await call<{ error: { code: number } }>(server, 'GET', '/models/demo/nope/endpoints', {
      token: key,
    });
    assert.equal(missing.status, 404);
    assert.equal(missing.body.error.code, 404);
    assert.equal((await call(server, 'GET', '/models/demo/slow/endpoints', { token: null })).status, 401);
  });

  it('swaps the catalog while a stream started before the reload finishes on the old one', async () => {
    const res = await fetch(`${server.api}/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        model: 'demo/slow',
        stream: true,
        messages: [{ role: 'user', content: 'one two three four five six seven eight nine ten' }],
      }),
    });
    assert.equal(res.status, 200);
    const reader = res.body?.getReader();
    assert.ok(reader);
    const decoder = new TextDecoder();
    let text = decoder.decode((await reader.read()).value as Uint8Array);

    // The new file drops the model being streamed and adds another.
    writeFileSync(configPath, catalogFile(['demo/new']));
    const reloaded = await call<{ data: { models: number; added_models: string[]; removed_models: string[] } }>(
      server,
      'POST',
      '/catalog/reload',
      { token: server.managementToken },
    );
    assert.equal(reloaded.status, 200);
    assert.deepEqual(reloaded.body.data.added_models, ['demo/new']);
    assert.deepEqual(reloaded.body.data.removed_models, ['demo/slow']);

    for (;;) {
      const step = await reader.read();
      if (step.done) break;
      text += decoder.decode(step.value as Uint8Array);
    }
    assert.ok(text.trimEnd().endsWith('data: [DONE]'), 'the in-flight stream completed');
    assert.match(text, /"model":"demo\/slow"/);
    assert.match(text, /ten/);

    assert.equal((await chat(server, key, 'demo/new')).status, 200);
    assert.equal((await chat(server, key, 'demo/slow')).status, 404);
    const endpoints = await call(server, 'GET', '/models/demo/new/endpoints', { token: key });
    assert.equal(endpoints.status, 200);
  });

  it('keeps the running catalog when the file is invalid and reports file:line for each problem', async () => {
    writeFileSync(configPath, INVALID);
    const refused = await call<{ error: { code: number; message: string; metadata: { errors: string[] } } }>(
      server,
      'POST',
      '/catalog/reload',
      { token: server.managementToken },
    );
    assert.equal(refused.status, 400);
    assert.match(refused.body.error.message, /running catalog is kept/);
    const lines = refused.body.error.metadata.errors;
    assert.ok(
      lines.some((l) => l === `${configPath}:8: models[0].endpoints[0].provider: unknown provider "nowhere"`),
      lines.join('\n'),
    );
    assert.equal((await chat(server, key, 'demo/new')).status, 200, 'the old catalog still serves');
    assert.equal((await chat(server, key, 'demo/broken')).status, 404);
  });

  it('a reload that moves a model to an unavailable provider routes its next call by the new catalog', async () => {
    const moved = (available: boolean) =>
      JSON.stringify({
        providers: [
          { id: 'demo', name: 'Demo', kind: 'demo', base_url: 'http://demo.local/', zdr: true },
          { id: 'off', kind: 'openai', base_url: 'https://off.example/v1', api_key_env: 'SWITCHYARD_TEST_UNSET_KEY' },
        ],
        models: [
          {
            slug: 'demo/moving',
            context_length: 8000,
            endpoints: [
              { provider: available ? 'demo' : 'off', upstream_model: 'echo', pricing: { prompt: 0, completion: 0 } },
            ],
          },
        ],
      });
    const reload = async (text: string) => {
      writeFileSync(configPath, text);
      const done = await call(server, 'POST', '/catalog/reload', { token: server.managementToken });
      assert.equal(done.status, 200);
    };
    await reload(moved(true));
    assert.equal((await chat(server, key, 'demo/moving')).status, 200);
    assert.equal((await chat(server, key, 'demo/moving')).status, 200);
    await reload(moved(false));
    const refused = await chat(server, key, 'demo/moving');
    assert.equal(refused.status, 503);
    await reload(moved(true));
    assert.equal((await chat(server, key, 'demo/moving')).status, 200);
  });

  it('is for management keys only', async () => {
    assert.equal((await call(server, 'POST', '/catalog/reload', { token: key })).status, 403);
    assert.equal((await call(server, 'POST', '/catalog/reload', { token: null })).status, 401);
  });
});
