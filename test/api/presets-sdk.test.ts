import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { OpenRouter } from '@openrouter/sdk';
import { call, dialects, startTestServer, type TestServer } from '../support/server.js';

/** The official client's presets.* methods, unmodified, against the running server. */
for (const dialect of dialects()) {
  describe(`@openrouter/sdk presets (${dialect})`, () => {
    let server: TestServer;
    let admin: OpenRouter;
    let reader: OpenRouter;

    before(async () => {
      server = await startTestServer({ dialect });
      const options = { serverURL: server.api, retryConfig: { strategy: 'none' as const } };
      admin = new OpenRouter({ apiKey: server.managementToken, ...options });
      const key = await call<{ key: string }>(server, 'POST', '/keys', {
        token: server.managementToken,
        body: { name: 'sdk reader' },
      });
      reader = new OpenRouter({ apiKey: key.body.key, ...options });
    });
    after(() => server.close());

    it('createPresetsChatCompletions, list, get, listVersions, getVersion', async () => {
      const created = await admin.presets.createPresetsChatCompletions({
        slug: 'sdk-preset',
        chatRequest: {
          model: 'demo/echo',
          temperature: 0.4,
          provider: { sort: 'price' },
          messages: [
            { role: 'system', content: 'Reply in haiku.' },
            { role: 'user', content: 'ignored' },
          ],
        },
      });
      assert.equal(created.data.slug, 'sdk-preset');
      assert.equal(created.data.status, 'active');
      assert.equal(created.data.designatedVersion?.version, 1);
      assert.equal(created.data.designatedVersion?.systemPrompt, 'Reply in haiku.');
      assert.deepEqual(created.data.designatedVersion?.config, {
        model: 'demo/echo',
        temperature: 0.4,
        provider: { sort: 'price' },
      });
      const second = await admin.presets.createPresetsChatCompletions({
        slug: 'sdk-preset',
        chatRequest: { model: 'demo/fast', messages: [{ role: 'user', content: 'x' }] },
      });
      assert.equal(second.data.designatedVersion?.version, 2);
      assert.equal(second.data.designatedVersionId, second.data.designatedVersion?.id);

      const listed = await reader.presets.list({ limit: 10 });
      assert.deepEqual(
        listed.result.data.map((p) => p.slug),
        ['sdk-preset'],
      );
      assert.equal(listed.result.totalCount, 1);
      const got = await reader.presets.get({ slug: 'sdk-preset' });
      assert.equal(got.data.id, created.data.id);
      assert.equal(got.data.designatedVersion?.config.model, 'demo/fast');
      const versions = await reader.presets.listVersions({ slug: 'sdk-preset' });
      assert.deepEqual(
        versions.result.data.map((v) => v?.version),
        [1, 2],
      );
      assert.equal(versions.result.totalCount, 2);
      const v1 = await reader.presets.getVersion({ slug: 'sdk-preset', version: '1' });
      assert.equal(v1.data?.config.temperature, 0.4);
      assert.equal(v1.data?.presetId, created.data.id);
    });

    it('typed errors: 404 for an unknown slug, 400 for one that is not URL-safe, 403 for an API key creating', async () => {
      await assert.rejects(
        reader.presets.get({ slug: 'missing' }),
        (e: unknown) => e instanceof Error && e.constructor.name === 'NotFoundResponseError',
      );
      await assert.rejects(
        reader.presets.get({ slug: 'not url safe' }),
        (e: unknown) => e instanceof Error && e.constructor.name === 'BadRequestResponseError',
      );
      await assert.rejects(
        reader.presets.createPresetsChatCompletions({
          slug: 'x',
          chatRequest: { model: 'demo/echo', messages: [{ role: 'user', content: 'x' }] },
        }),
        (e: unknown) => e instanceof Error && e.constructor.name === 'ForbiddenResponseError',
      );
    });
  });
}
