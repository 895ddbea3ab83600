import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { dialects } from '../support/server.js';
import { launchBrowser } from './browser.js';
import { startConsole, type ConsoleHarness } from './harness.js';

interface Key {
  hash: string;
  name: string;
  limit: number | null;
  limit_reset: string | null;
  expires_at: string | null;
}

for (const dialect of dialects()) {
  describe(`console: audit log, edits in place, guardrail moves (${dialect})`, () => {
    let browser: Browser;
    let h: ConsoleHarness;
    before(async () => {
      browser = await launchBrowser();
      h = await startConsole(browser, dialect);
      await h.signIn();
    });
    after(async () => {
      await h.close();
      await browser.close();
    });

    it('edits a key in place: name, limit, reset and expiry', async () => {
      const { page } = h;
      const created = await h.api<{ data: Key }>('POST', '/keys', { name: 'before edit' });
      await h.open('/keys', 'API keys');
      await page.getByRole('button', { name: 'Edit before edit' }).click();
      const dialog = page.getByRole('dialog', { name: 'Edit “before edit”' });
      await dialog.getByLabel('Name').fill('after edit');
      await dialog.getByLabel('Limit (USD)').fill('7');
      await dialog.getByLabel('Limit resets').selectOption('weekly');
      await dialog.getByLabel('Expires (UTC)').fill('2099-01-02T03:04:05');
      await dialog.getByRole('button', { name: 'Save changes' }).click();
      await page.getByRole('status').filter({ hasText: 'Saved “after edit”.' }).waitFor();
      await page.locator('tr', { hasText: 'after edit' }).getByText('$0.00 of $7.00 weekly').waitFor();
      const stored = await h.api<{ data: Key }>('GET', `/keys/${created.data.hash}`);
      assert.deepEqual(
        [stored.data.name, stored.data.limit, stored.data.limit_reset, stored.data.expires_at],
        ['after edit', 7, 'weekly', '2099-01-02T03:04:05.000Z'],
      );

      await page.getByRole('button', { name: 'Edit after edit' }).click();
      const again = page.getByRole('dialog', { name: 'Edit “after edit”' });
      await again.getByLabel('Expires (UTC)').fill('2001-01-01T00:00:00');
      await again.getByRole('button', { name: 'Save changes' }).click();
      await again.getByRole('alert').filter({ hasText: 'expires_at must be in the future' }).waitFor();
      await again.getByRole('button', { name: 'Cancel' }).click();
    });

    it('warns that assigning moves a key off its guardrail, and the audit page shows both sides', async () => {
      const { page } = h;
      const first = await h.api<{ data: { id: string } }>('POST', '/guardrails', { name: 'Old home' });
      const second = await h.api<{ data: { id: string } }>('POST', '/guardrails', { name: 'New home' });
      const key = await h.api<{ data: Key }>('POST', '/keys', { name: 'wanderer' });
      await h.api('POST', `/guardrails/${first.data.id}/assignments/keys`, { key_hashes: [key.data.hash] });

      await h.open(`/guardrails/${second.data.id}`, 'New home');
      const picker = page.getByLabel('Assign a key');
      // Each key's option names its workspace and the guardrail it holds now.
      await picker
        .locator('option', { hasText: /^wanderer .*workspace Default.* guardrail Old home$/ })
        .waitFor({ state: 'attached' });
      await picker.selectOption(key.data.hash);
      await page.getByTestId('move-warning').filter({ hasText: 'Assigning moves this key from “Old home”' }).waitFor();
      await page.getByRole('button', { name: 'Assign key' }).click();
      await page.getByRole('link', { name: 'wanderer' }).waitFor();
      assert.equal(await page.getByTestId('move-warning').count(), 0);

      await h.open(`/audit-log?target_id=${first.data.id}`, 'Audit log');
      const moved = page.locator('tr', { hasText: 'guardrail.keys.unassign' });
      await moved.getByText(second.data.id).waitFor();
      await moved.getByRole('link', { name: 'Old home' }).waitFor();
      await h.assertNoViolations('the audit log filtered by target');
    });

    it('refuses a model the catalog does not know with a message; keeps an unknown provider with a note', async () => {
      const { page } = h;
      await h.open('/guardrails/new', 'New guardrail');
      const models = page.getByRole('group', { name: 'Allowed models' });
      await models.getByLabel('Add to allowed models').fill('nope/model');
      await models.getByRole('button', { name: 'Add' }).click();
      await models.getByRole('status').filter({ hasText: '“nope/model” is not a known model' }).waitFor();
      assert.equal(await models.locator('.chip').count(), 0, 'nothing added');
      await models.getByLabel('Add to allowed models').fill('openai/gpt-test');
      await models.getByLabel('Add to allowed models').press('Enter');
      await models.locator('.chip', { hasText: 'openai/gpt-test-2026-01-01' }).waitFor();
      assert.equal(await models.getByRole('status').textContent(), '');
      const providers = page.getByRole('group', { name: 'Allowed providers' });
      await providers.getByLabel('Add to allowed providers').fill('acme');
      await providers.getByRole('button', { name: 'Add' }).click();
      await providers.locator('.chip', { hasText: 'acme' }).waitFor();
      await providers.getByRole('status').filter({ hasText: '“acme” is not a configured provider' }).waitFor();
    });

    it('creates a preset and a new version with a diff against the designated one; By names the member', async () => {
      const { page } = h;
      await h.open('/presets', 'Presets');
      await page.getByRole('button', { name: 'New preset' }).click();
      const create = page.getByRole('dialog', { name: 'New preset' });
      await create.getByLabel('Slug').fill('console-made');
      await create.getByLabel('Model').fill('openai/gpt-test');
      await create.getByLabel('Parameters (JSON)').fill('{"temperature": 0.5}');
      await create.getByLabel('System prompt').fill('Be brief.');
      await create.getByRole('button', { name: 'Create preset' }).click();
      await page.getByRole('status').filter({ hasText: 'Preset “console-made” created with v1.' }).waitFor();
      await page.getByTestId('designated-version').filter({ hasText: 'Designated version: 1' }).waitFor();

      await page.getByRole('button', { name: 'New version' }).click();
      const edit = page.getByRole('dialog', { name: 'New version of console-made' });
      assert.equal(await edit.getByLabel('System prompt').inputValue(), 'Be brief.');
      await edit.getByLabel('Parameters (JSON)').fill('{"temperature": oops');
      await edit.getByText(/^Parameters are not valid JSON/).waitFor();
      assert.equal(await edit.getByRole('button', { name: 'Save as new version' }).isDisabled(), true);
      await edit.getByLabel('Parameters (JSON)').fill('{"temperature": 0.9}');
      await edit.getByLabel('System prompt').fill('Be very brief.');
      const diff = edit.getByTestId('draft-diff');
      await diff.getByText('+ Be very brief.').waitFor();
      assert.match((await diff.textContent()) ?? '', /− +"temperature": 0\.5/);
      await h.assertNoViolations('the new version dialog');
      await edit.getByRole('button', { name: 'Save as new version' }).click();
      await page.getByRole('status').filter({ hasText: 'Saved v2; it is now designated.' }).waitFor();
      const stored = await h.api<{ data: { designated_version: { version: number; system_prompt: string } } }>(
        'GET',
        '/presets/console-made',
      );
      assert.deepEqual(stored.data.designated_version, {
        ...stored.data.designated_version,
        version: 2,
        system_prompt: 'Be very brief.',
      });
      const history = page.locator('table').first();
      assert.equal(await history.getByText(/^user_/).count(), 0, 'no member id in By');
      await history.getByText('owner@switchyard.local').first().waitFor();

      await page.getByRole('button', { name: 'Roll back to v1' }).click();
      await page.getByRole('dialog', { name: 'Roll back to v1?' }).getByRole('button', { name: 'Cancel' }).click();
      await page.getByTestId('designated-version').filter({ hasText: 'Designated version: 2' }).waitFor();
    });

    it('deletes a workspace once it owns no active key; the refusal says why and links to the keys', async () => {
      const { page } = h;
      const members = await h.api<{ data: { id: string }[] }>('GET', '/organization/members');
      await h.api('POST', '/workspaces', { name: 'Doomed', slug: 'doomed' });
      await h.api('POST', '/workspaces/doomed/members/add', { user_ids: members.data.map((m) => m.id) });
      const key = await h.api<{ data: Key }>('POST', '/keys', { name: 'blocker', workspace_id: 'doomed' });
      await h.open('/workspaces/doomed', 'Workspaces and members');
      await page.getByRole('button', { name: 'Delete workspace' }).click();
      await page
        .getByRole('dialog', { name: 'Delete this workspace?' })
        .getByRole('button', { name: 'Delete workspace' })
        .click();
      await page.getByRole('alert').filter({ hasText: 'still owns 1 active API key' }).waitFor();
      await page.getByRole('link', { name: "See the workspace's keys" }).waitFor();

      await h.api('PATCH', `/keys/${key.data.hash}`, { disabled: true });
      await page.getByRole('button', { name: 'Delete workspace' }).click();
      await page
        .getByRole('dialog', { name: 'Delete this workspace?' })
        .getByRole('button', { name: 'Delete workspace' })
        .click();
      await page.getByRole('status').filter({ hasText: 'Workspace “Doomed” deleted.' }).waitFor();
      assert.equal(await page.getByRole('link', { name: 'Doomed' }).count(), 0);
    });

    it('the audit log page filters by actor, action, target and time, and pages by cursor', async () => {
      const { page } = h;
      const key = await h.api<{ data: Key }>('POST', '/keys', { name: 'audited' });
      for (let i = 0; i < 55; i++) await h.api('PATCH', `/keys/${key.data.hash}`, { name: `audited ${i}` });
      await h.open('/audit-log', 'Audit log');
      const rows = page.locator('tbody tr');
      await rows.nth(49).waitFor();
      assert.equal(await rows.count(), 50);
      await page.getByLabel('Action').fill('key.update');
      await page.getByLabel('Target type').selectOption('key');
      await page.getByLabel('Target id').fill(key.data.hash);
      await page.getByLabel('Actor').fill('owner@switchyard.local');
      await page.getByRole('button', { name: 'Apply filters' }).click();
      await page.waitForURL(/action=key\.update/);
      await rows.nth(49).waitFor();
      assert.equal(await page.locator('tbody tr', { hasText: 'key.update' }).count(), 50);
      await rows.first().getByRole('link', { name: 'audited 54' }).waitFor();
      await page.getByRole('button', { name: 'Older →' }).click();
      await page.getByText('Page 2').waitFor();
      await rows.nth(4).waitFor();
      await rows.nth(5).waitFor({ state: 'detached' });
      assert.equal(await page.getByRole('button', { name: 'Older →' }).isDisabled(), true);
      await page.getByRole('button', { name: '← Newer' }).click();
      await page.getByText('Page 1').waitFor();
      await rows.nth(49).waitFor();

      await page.getByLabel('From (UTC)').fill('2100-01-01T00:00');
      await page.getByRole('button', { name: 'Apply filters' }).click();
      await page.getByText('No change matches these filters.').waitFor();
      await page.getByRole('link', { name: 'Clear filters' }).click();
      await page.getByLabel('Actor').fill('cli');
      await page.getByRole('button', { name: 'Apply filters' }).click();
      await page.getByText('No change matches these filters.').waitFor();
    });
  });
}
