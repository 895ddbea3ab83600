// A generation of each API surface, read back: `api_type` stays within OpenRouter's enum
// (`completions`, `embeddings`; the official SDK parses it), `api_surface` says which surface the
// client called, and GET /generations filters by it.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { OpenRouter } from '@openrouter/sdk';
import { call, dialects, startTestServer, type TestServer } from '../support/server.js';

const ask = 'hello there';
const SURFACES = {
  chat: { path: '/chat/completions', body: { model: 'demo/echo', messages: [{ role: 'user', content: ask }] } },
  completions: { path: '/completions', body: { model: 'demo/echo', prompt: ask } },
  messages: {
    path: '/messages',
    body: { model: 'demo/echo', max_tokens: 16, messages: [{ role: 'user', content: ask }] },
  },
  responses: { path: '/responses', body: { model: 'demo/echo', input: ask } },
  embeddings: { path: '/embeddings', body: { model: 'demo/embed', input: ask } },
} as const;
type Surface = keyof typeof SURFACES;

for (const dialect of dialects()) {
  describe(`api_type and api_surface of generations (${dialect})`, () => {
    let server: TestServer;
    let apiKey = '';
    const ids = new Map<Surface, string>();

    before(async () => {
      server = await startTestServer({ dialect });
      const created = await call<{ key: string }>(server, 'POST', '/keys', {
        token: server.managementToken,
        body: { name: 'surfaces' },
      });
      apiKey = created.body.key;
      for (const [surface, { path, body }] of Object.entries(SURFACES) as [Surface, (typeof SURFACES)[Surface]][]) {
        const res = await call<{ id?: string }>(server, 'POST', path, { token: apiKey, body });
        assert.equal(res.status, 200, `${surface}: ${JSON.stringify(res.body)}`);
        const id = res.headers.get('x-generation-id') ?? res.body.id ?? '';
        assert.match(id, /^gen-/, surface);
        ids.set(surface, id);
      }
      await server.running.services.meter.flush();
    });
    after(() => server.close());

    it('@openrouter/sdk reads a generation of each surface: completions, or embeddings', async () => {
      const sdk = new OpenRouter({ apiKey, serverURL: server.api, retryConfig: { strategy: 'none' } });
      for (const [surface, id] of ids) {
        const res = await sdk.generations.getGeneration({ id });
        assert.equal(res.data.apiType, surface === 'embeddings' ? 'embeddings' : 'completions', surface);
        const raw = await call<{ data: { api_surface: string } }>(server, 'GET', `/generation?id=${id}`, {
          token: apiKey,
        });
        assert.equal(raw.body.data.api_surface, surface);
      }
    });

    it('GET /generations shows both fields and filters by api_surface; an unknown surface is 400', async () => {
      for (const [surface, id] of ids) {
        const page = await call<{ data: { id: string; api_type: string; api_surface: string }[] }>(
          server,
          'GET',
          `/generations?api_surface=${surface}`,
          { token: server.managementToken },
        );
        assert.equal(page.status, 200);
        assert.deepEqual(
          page.body.data.map((r) => [r.id, r.api_type, r.api_surface]),
          [[id, surface === 'embeddings' ? 'embeddings' : 'completions', surface]],
        );
      }
      const bad = await call(server, 'GET', '/generations?api_surface=images', { token: server.managementToken });
      assert.equal(bad.status, 400);
    });
  });
}
