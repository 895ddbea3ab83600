import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { FAKE_TEXT } from '../fake-upstream/index.js';
import { dialects } from '../support/server.js';
import { launchBrowser } from './browser.js';
import { startConsole, type ConsoleHarness } from './harness.js';

describe('console: workspaces, members and presets', () => {
  let browser: Browser;
  before(async () => {
    browser = await launchBrowser();
  });
  after(() => browser.close());

  for (const dialect of dialects()) {
    describe(dialect, () => {
      let h: ConsoleHarness;
      before(async () => {
        h = await startConsole(browser, dialect);
        await h.signIn();
      });
      after(() => h.close());

      it('creates and edits a workspace, adds members, and shows who holds keys when a removal is refused', async () => {
        const { page } = h;
        const alice = await h.api<{ data: { id: string } }>('POST', '/organization/members', {
          email: 'alice@example.com',
          first_name: 'Alice',
        });
        await h.api('POST', '/organization/members', { email: 'bob@example.com', first_name: 'Bob' });
        await h.open('/workspaces', 'Workspaces and members');
        const form = page.getByRole('form', { name: 'New workspace' });
        await form.getByLabel('Name').fill('Research');
        await form.getByLabel('Slug').fill('research');
        await form.getByRole('button', { name: 'Create workspace' }).click();
        await page.getByRole('heading', { name: 'Members of Research' }).waitFor();

        await page
          .getByLabel('Add members')
          .selectOption([{ label: 'Alice <alice@example.com>' }, { label: 'Bob <bob@example.com>' }]);
        await page.getByRole('button', { name: 'Add', exact: true }).click();
        await page.getByRole('status').filter({ hasText: 'Added 2 member(s).' }).waitFor();

        await h.api('POST', '/keys', { name: 'alice key', workspace_id: 'research', creator_user_id: alice.data.id });
        await page.getByLabel('Select Alice <alice@example.com>').check();
        await page.getByLabel('Select Bob <bob@example.com>').check();
        await page.getByRole('button', { name: 'Remove selected (2)' }).click();
        const conflict = page.getByTestId('remove-conflict');
        await conflict.getByText('Nothing was removed.').waitFor();
        await conflict.getByText('Alice <alice@example.com>').waitFor();
        assert.equal(await conflict.getByText('bob@example.com').count(), 0, 'only the key holder is named');
        const members = await h.api<{ data: unknown[] }>('GET', '/workspaces/research/members');
        assert.equal(members.data.length, 2, 'all or nothing: nobody was removed');
        await h.assertAccessible('the workspaces page with a refused removal');

        await conflict.getByRole('link', { name: 'their keys' }).click();
        await page.getByRole('heading', { level: 1, name: 'API keys' }).waitFor();
        await page.locator('tr', { hasText: 'alice key' }).waitFor();

        await h.open('/workspaces/research', 'Workspaces and members');
        const edit = page.getByRole('form', { name: 'Edit workspace' });
        await edit.getByLabel('Name').fill('Research team');
        await edit.getByRole('button', { name: 'Save' }).click();
        await page.getByRole('heading', { name: 'Members of Research team' }).waitFor();
      });

      it('shows a preset’s history and diff, rolls it back, and streams a playground call', async () => {
        const { page } = h;
        await h.api('POST', '/presets/writer/chat/completions', { model: 'openai/gpt-test', temperature: 0.2 });
        await h.api('POST', '/presets/writer/chat/completions', {
          model: 'openai/gpt-test',
          temperature: 0.7,
          messages: [{ role: 'system', content: 'Be brief.' }],
        });
        await h.open('/presets', 'Presets');
        await page.getByRole('link', { name: 'writer' }).click();
        await page.getByTestId('designated-version').filter({ hasText: 'Designated version: 2' }).waitFor();
        const diff = page.getByTestId('preset-diff');
        await diff.getByText('"temperature": 0.7').waitFor();
        assert.match((await diff.textContent()) ?? '', /− +"temperature": 0\.2/);
        await h.assertAccessible('the preset page');

        await page.getByRole('button', { name: 'Roll back to v1' }).click();
        const confirm = page.getByRole('dialog', { name: 'Roll back to v1?' });
        await confirm.getByRole('button', { name: 'Roll back now' }).click();
        await page
          .getByRole('status')
          .filter({ hasText: 'Rolled back to v1: calls to @preset/writer now use v1.' })
          .waitFor();
        await page.getByTestId('designated-version').filter({ hasText: 'Designated version: 1' }).waitFor();
        const after = await h.api<{ data: { designated_version: { version: number } } }>('GET', '/presets/writer');
        assert.equal(after.data.designated_version.version, 1);

        await page.getByLabel('API key').fill(h.gw.apiKey);
        await page.getByRole('button', { name: 'Send through @preset/writer' }).click();
        await page.getByTestId('playground-output').filter({ hasText: FAKE_TEXT }).waitFor();
        const upstream = h.gw.fake.requests.at(-1);
        assert.match(JSON.stringify(upstream?.body), /"temperature":0\.2\b/, 'the rolled-back version served');
      });
    });
  }
});
