import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { dialects } from '../support/server.js';
import { launchBrowser } from './browser.js';
import { startConsole, type ConsoleHarness } from './harness.js';

async function status(h: ConsoleHarness, token: string): Promise<number> {
  return (await fetch(`${h.gw.server.api}/key`, { headers: { authorization: `Bearer ${token}` } })).status;
}

describe('console: keys', () => {
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

      it('creates a key, shows its token once with a working copy button, rotates, disables, enables and deletes it', async () => {
        const { page } = h;
        await h.open('/keys', 'API keys');
        await page.getByRole('button', { name: 'Create key' }).click();
        const create = page.getByRole('dialog', { name: 'Create an API key' });
        await create.getByLabel('Name').fill('ci bot');
        await create.getByLabel('Limit (USD)').fill('10');
        await create.getByLabel('Limit resets').selectOption('daily');
        await create.getByRole('button', { name: 'Create key' }).click();

        const shown = page.getByRole('dialog', { name: 'Key “ci bot” created' });
        const token = (await shown.getByTestId('new-token').textContent()) ?? '';
        assert.match(token, /^sk-sy-v1-[0-9a-f]{64}$/);
        await shown.getByRole('button', { name: 'Copy' }).click();
        await shown.getByText('Copied to the clipboard.').waitFor();
        assert.equal(await page.evaluate<string>('navigator.clipboard.readText()'), token);
        assert.equal(await status(h, token), 200, 'the token shown works');
        await shown.getByRole('button', { name: 'Done' }).click();
        const row = page.locator('tr', { hasText: 'ci bot' });
        await row.getByText('$0.00 of $10.00 daily').waitFor();
        assert.equal(await page.getByTestId('new-token').count(), 0, 'the token is not shown again');
        await h.assertAccessible('the keys page');

        await page.getByRole('button', { name: 'Rotate ci bot' }).click();
        await page.getByRole('button', { name: 'Rotate now' }).click();
        const rotated = page.getByRole('dialog', { name: 'New token for “ci bot”' });
        const fresh = (await rotated.getByTestId('new-token').textContent()) ?? '';
        assert.match(fresh, /^sk-sy-v1-/);
        assert.notEqual(fresh, token);
        assert.equal(await status(h, token), 401, 'the old token stops working');
        assert.equal(await status(h, fresh), 200);
        await rotated.getByRole('button', { name: 'Done' }).click();

        await page.getByRole('button', { name: 'Disable ci bot' }).click();
        await row.getByText('disabled', { exact: true }).waitFor();
        assert.equal(await status(h, fresh), 401, 'a disabled key is refused');
        await page.getByRole('button', { name: 'Enable ci bot' }).click();
        await row.getByText('active', { exact: true }).waitFor();
        assert.equal(await status(h, fresh), 200);

        await page.getByRole('button', { name: 'Delete ci bot' }).click();
        const confirm = page.getByRole('dialog', { name: 'Delete this key?' });
        await confirm.getByRole('button', { name: 'Delete key' }).click();
        await row.waitFor({ state: 'detached' });
        assert.equal(await status(h, fresh), 401, 'a deleted key is refused');
      });

      it('searches keys by name', async () => {
        const { page } = h;
        await h.api('POST', '/keys', { name: 'search alpha' });
        await h.api('POST', '/keys', { name: 'search beta' });
        await h.open('/keys', 'API keys');
        await page.getByRole('searchbox', { name: 'Search' }).fill('alpha');
        await page.locator('tr', { hasText: 'search alpha' }).waitFor();
        await page.locator('tr', { hasText: 'search beta' }).waitFor({ state: 'detached' });
      });

      it('shows the API error envelope when a create is refused', async () => {
        const { page } = h;
        await h.open('/keys', 'API keys');
        await page.getByRole('button', { name: 'Create key' }).click();
        const create = page.getByRole('dialog', { name: 'Create an API key' });
        await create.getByLabel('Name').fill('expired already');
        await create.getByLabel('Expires (UTC)').fill('2001-01-01T00:00:00');
        await create.getByRole('button', { name: 'Create key' }).click();
        await create
          .getByRole('alert')
          .filter({ hasText: /^400: / })
          .waitFor();
        await create.getByRole('button', { name: 'Cancel' }).click();
      });
    });
  }
});
