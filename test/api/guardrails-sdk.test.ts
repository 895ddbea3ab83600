import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { OpenRouter } from '@openrouter/sdk';
import { call, dialects, startTestServer, type TestServer } from '../support/server.js';

/** The official client's guardrails.* methods, unmodified, against the running server. */
for (const dialect of dialects()) {
  describe(`@openrouter/sdk guardrails (${dialect})`, () => {
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

    it('create/list/get/update/delete with vendor-named ZDR flags and filters', async () => {
      const created = await sdk.guardrails.create({
        createGuardrailRequest: {
          name: 'SDK guardrail',
          description: 'from the sdk',
          allowedModels: ['demo/echo'],
          limitUsd: 5,
          resetInterval: 'daily',
          enforceZdr: true,
          enforceZdrAnthropic: false,
          includeByokInBudgets: true,
          contentFilterBuiltins: [
            { slug: 'email', action: 'redact' },
            { slug: 'regex-prompt-injection', action: 'flag', scanScope: 'user_only' },
          ],
          contentFilters: [{ pattern: 'secret-\\d+', action: 'block', label: 'SECRET' }],
        },
      });
      const id = created.data.id;
      assert.equal(created.data.name, 'SDK guardrail');
      assert.equal(created.data.includeByokInBudgets, true);
      assert.equal(created.data.resetInterval, 'daily');
      assert.equal(created.data.contentFilterBuiltins?.[0]?.label, '[EMAIL]');
      assert.equal(created.data.contentFilterBuiltins?.[1]?.scanScope, 'user_only');
      const raw = await call<{ data: Record<string, unknown> }>(server, 'GET', `/guardrails/${id}`, {
        token: server.managementToken,
      });
      assert.equal(raw.body.data.enforce_zdr_vendor_a, false, 'enforce_zdr_anthropic is the vendor_a alias');
      assert.equal(raw.body.data.enforce_zdr_vendor_b, true, 'rule Z');

      const page = await sdk.guardrails.list({ limit: 10 });
      assert.ok(page.result.data.some((g) => g.id === id));
      assert.equal(page.result.totalCount, page.result.data.length);
      const got = await sdk.guardrails.get({ id });
      assert.equal(got.data.limitUsd, 5);
      const updated = await sdk.guardrails.update({
        id,
        updateGuardrailRequest: { name: 'Renamed', contentFilters: null, enforceZdrOther: false },
      });
      assert.equal(updated.data.name, 'Renamed');
      assert.equal(updated.data.contentFilters, null);
      assert.equal(updated.data.enforceZdrOther, false);
      assert.equal(updated.data.description, 'from the sdk');
      const deleted = await sdk.guardrails.delete({ id });
      assert.equal(deleted.deleted, true);
    });

    it('key and member assignments: bulk assign, list (per guardrail and all), bulk unassign', async () => {
      const g = await sdk.guardrails.create({ createGuardrailRequest: { name: 'assign via sdk' } });
      const key = await sdk.apiKeys.create({ requestBody: { name: 'sdk assigned key' } });
      const member = await call<{ data: { id: string } }>(server, 'POST', '/organization/members', {
        token: server.managementToken,
        body: { email: `sdk-guard-${dialect}@example.com` },
      });
      const userId = member.body.data.id;
      const id = g.data.id;

      const assigned = await sdk.guardrails.bulkAssignKeys({
        id,
        bulkAssignKeysRequest: { keyHashes: [key.data.hash] },
      });
      assert.equal(assigned.assignedCount, 1);
      const perGuardrail = await sdk.guardrails.listGuardrailKeyAssignments({ id });
      assert.equal(perGuardrail.result.totalCount, 1);
      assert.equal(perGuardrail.result.data[0]?.keyHash, key.data.hash);
      assert.equal(perGuardrail.result.data[0]?.keyName, 'sdk assigned key');
      const allKeys = await sdk.guardrails.listKeyAssignments({});
      assert.ok(allKeys.result.data.some((a) => a.keyHash === key.data.hash));
      const unassigned = await sdk.guardrails.bulkUnassignKeys({
        id,
        bulkUnassignKeysRequest: { keyHashes: [key.data.hash] },
      });
      assert.equal(unassigned.unassignedCount, 1);

      const assignedMembers = await sdk.guardrails.bulkAssignMembers({
        id,
        bulkAssignMembersRequest: { memberUserIds: [userId] },
      });
      assert.equal(assignedMembers.assignedCount, 1);
      const members = await sdk.guardrails.listGuardrailMemberAssignments({ id });
      assert.equal(members.result.data[0]?.userId, userId);
      assert.equal(members.result.data[0]?.organizationId, 'org_default');
      const allMembers = await sdk.guardrails.listMemberAssignments({});
      assert.ok(allMembers.result.data.some((a) => a.userId === userId));
      const unassignedMembers = await sdk.guardrails.bulkUnassignMembers({
        id,
        bulkUnassignMembersRequest: { memberUserIds: [userId] },
      });
      assert.equal(unassignedMembers.unassignedCount, 1);
    });
  });
}
