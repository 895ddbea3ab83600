import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { OpenRouter } from '@openrouter/sdk';
import { call, dialects, startTestServer, type TestServer } from '../support/server.js';

/** The official client, unmodified, against the running server: no parse errors on any call. */
for (const dialect of dialects()) {
  describe(`@openrouter/sdk keys and workspaces (${dialect})`, () => {
    let server: TestServer;
    let sdk: OpenRouter;

    before(async () => {
      server = await startTestServer({ dialect });
      sdk = new OpenRouter({
        apiKey: server.managementToken,
        serverURL: server.api,
        retryConfig: { strategy: 'none' },
      });
    });
    after(() => server.close());

    it('apiKeys.create/list/get/update/delete/getCurrentKeyMetadata', async () => {
      const created = await sdk.apiKeys.create({
        requestBody: { name: 'sdk key', limit: 10, limitReset: 'weekly', expiresAt: new Date(Date.now() + 86_400_000) },
      });
      assert.match(created.key, /^sk-sy-v1-/);
      assert.equal(created.data.name, 'sdk key');
      assert.equal(created.data.limitReset, 'weekly');
      const hash = created.data.hash;
      const listed = await sdk.apiKeys.list();
      assert.ok(listed.data.some((k) => k.hash === hash));
      const got = await sdk.apiKeys.get({ hash });
      assert.equal(got.data.limit, 10);
      const updated = await sdk.apiKeys.update({
        hash,
        requestBody: { name: 'renamed', disabled: false, limit: null },
      });
      assert.equal(updated.data.name, 'renamed');
      assert.equal(updated.data.limit, null);
      const asApi = new OpenRouter({ apiKey: created.key, serverURL: server.api, retryConfig: { strategy: 'none' } });
      const current = await asApi.apiKeys.getCurrentKeyMetadata();
      assert.equal(current.data.isManagementKey, false);
      const deleted = await sdk.apiKeys.delete({ hash });
      assert.equal(deleted.deleted, true);
    });

    it('workspaces.create/list/get/update/listMembers/bulkAddMembers/bulkRemoveMembers/delete', async () => {
      const member = await call<{ data: { id: string } }>(server, 'POST', '/organization/members', {
        token: server.managementToken,
        body: { email: `sdk-${dialect}@example.com` },
      });
      const userId = member.body.data.id;
      const created = await sdk.workspaces.create({
        createWorkspaceRequest: { name: 'SDK team', slug: 'sdk-team', description: 'made by the sdk' },
      });
      assert.equal(created.data.slug, 'sdk-team');
      const page = await sdk.workspaces.list({});
      assert.ok(page.result.data.some((w) => w.id === created.data.id));
      assert.ok(page.result.totalCount >= 2);
      const got = await sdk.workspaces.get({ id: 'sdk-team' });
      assert.equal(got.data.id, created.data.id);
      const updated = await sdk.workspaces.update({
        id: created.data.id,
        updateWorkspaceRequest: { name: 'SDK team 2', defaultTextModel: 'demo/echo' },
      });
      assert.equal(updated.data.name, 'SDK team 2');
      const added = await sdk.workspaces.bulkAddMembers({
        id: 'sdk-team',
        bulkAddWorkspaceMembersRequest: { userIds: [userId] },
      });
      assert.equal(added.addedCount, 1);
      const members = await sdk.workspaces.listMembers({ id: 'sdk-team' });
      assert.deepEqual(
        members.result.data.map((m) => m.userId),
        [userId],
      );
      const removed = await sdk.workspaces.bulkRemoveMembers({
        id: 'sdk-team',
        bulkRemoveWorkspaceMembersRequest: { userIds: [userId] },
      });
      assert.equal(removed.removedCount, 1);
      const deleted = await sdk.workspaces.delete({ id: 'sdk-team' });
      assert.equal(deleted.deleted, true);
    });
  });
}
