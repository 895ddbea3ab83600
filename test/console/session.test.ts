import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { dialects } from '../support/server.js';
import { asCli } from '../../src/domain/audit/record.js';
import { launchBrowser } from './browser.js';
import { startConsole, type ConsoleHarness } from './harness.js';

describe('console: sign-in sessions', () => {
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
      });
      after(() => h.close());

      it('refuses a wrong key with the server’s message and keeps the key out of script-readable storage', async () => {
        const { page } = h;
        await page.goto(h.consoleUrl);
        await h.assertAccessible('the sign-in page');
        await page.getByLabel('Management key').fill('sk-sy-v1-not-a-real-key');
        await page.getByRole('button', { name: 'Sign in' }).click();
        await page
          .getByRole('alert')
          .filter({ hasText: /^401: / })
          .waitFor();

        await h.signIn();
        const readable = await page.evaluate<string>(
          'JSON.stringify(localStorage) + JSON.stringify(sessionStorage) + document.cookie',
        );
        assert.ok(!readable.includes(h.gw.server.managementToken), 'the key is in no storage JavaScript can read');
        assert.equal(await page.getByLabel('Management key').count(), 0);
        const cookies = await h.context.cookies();
        assert.ok(cookies.length > 0 && cookies.every((c) => c.httpOnly), 'the session cookie is HttpOnly');
      });

      it('signs out: the cookie no longer opens the console', async () => {
        const { page } = h;
        await h.signIn();
        await page.getByRole('button', { name: 'Sign out' }).click();
        await page.getByText('You have signed out.').waitFor();
        await page.reload();
        await page.getByLabel('Management key').waitFor();
      });

      it('ends the session as soon as its management key is rotated', async () => {
        const { page } = h;
        await h.signIn();
        await h.open('/keys', 'API keys');
        const managementHashes = (await h.gw.server.running.services.store.keys.listManagement()).map((k) => k.hash);
        assert.equal(managementHashes.length, 1);
        await h.gw.server.running.services.keys.rotate(managementHashes[0] ?? '', 'management', asCli);
        // The next request (a page still loading may already have made it) answers 401.
        await page.evaluate(`location.hash = '#/guardrails'`);
        await page.getByText('Your session has ended. Sign in again to continue.').waitFor();
        await page.getByLabel('Management key').waitFor();
      });
    });
  }
});
