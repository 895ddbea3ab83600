import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { dialects } from '../support/server.js';
import { launchBrowser } from './browser.js';
import { startConsole, type ConsoleHarness } from './harness.js';

async function chat(h: ConsoleHarness, model: string): Promise<number> {
  const res = await fetch(`${h.gw.server.api}/chat/completions`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${h.gw.apiKey}`,
      'content-type': 'application/json',
      'user-agent': 'claude-cli/2.1.0 (console test)',
      'x-session-id': 'sess-console-1',
    },
    body: JSON.stringify({ model, messages: [{ role: 'user', content: 'hi' }] }),
  });
  await res.arrayBuffer();
  return res.status;
}

describe('console: overview, activity, models', () => {
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
        for (let i = 0; i < 3; i++) assert.equal(await chat(h, 'openai/gpt-test'), 200);
        for (let i = 0; i < 4; i++) h.gw.fake.queue('fail-500');
        assert.notEqual(await chat(h, 'anthropic/claude-test'), 200);
        // The ledger is written behind the answer: wait until the four generations are listed.
        for (let i = 0; i < 100; i++) {
          const page = await h.api<{ data: unknown[] }>('GET', '/generations?limit=10');
          if (page.data.length >= 4) break;
          await new Promise((r) => setTimeout(r, 100));
        }
        await h.signIn();
      });
      after(() => h.close());

      it('filters the activity log and opens a generation', async () => {
        const { page } = h;
        await h.open('/activity', 'Activity');
        const rows = page.locator('tbody tr.clickable');
        await rows.nth(3).waitFor();
        assert.equal(await rows.count(), 4);
        await page.getByLabel('Status').selectOption('error');
        await page.waitForURL(/status=error/);
        await page.locator('tbody tr.clickable', { hasText: 'anthropic/claude-test' }).waitFor();
        await rows.nth(1).waitFor({ state: 'detached' });
        assert.equal(await rows.count(), 1);
        await page.getByLabel('Status').selectOption('');
        // Every call here was a chat call: the API surface filter keeps all or none.
        await page.getByLabel('API surface').selectOption('embeddings');
        await page.waitForURL(/surface=embeddings/);
        await page.getByText('No generations match these filters.').waitFor();
        await page.getByLabel('API surface').selectOption('chat');
        await rows.nth(3).waitFor();
        assert.equal(await rows.count(), 4);
        assert.equal(await rows.first().getByRole('cell', { name: 'chat', exact: true }).count(), 1);
        await page.getByLabel('API surface').selectOption('');
        await page.getByLabel('Model').selectOption('openai/gpt-test');
        await rows.nth(2).waitFor();
        await rows.nth(3).waitFor({ state: 'detached' });
        assert.equal(await rows.count(), 3);
        await page.getByLabel('Time range').selectOption('1h');
        await rows.nth(2).waitFor();
        await h.assertAccessible('the activity page');

        await rows.first().locator('a').click();
        await page.getByRole('heading', { level: 1, name: /^Generation / }).waitFor();
        await page.getByRole('cell', { name: 'openai/gpt-test' }).first().waitFor();
        // Who called: the client's user agent and session.
        await page.getByRole('cell', { name: 'claude-cli/2.1.0 (console test)' }).waitFor();
        await page.getByRole('cell', { name: 'sess-console-1' }).waitFor();
        await page.getByRole('cell', { name: 'chat', exact: true }).waitFor();
        await h.assertAccessible('a generation');
        await page.getByRole('link', { name: '← Back to the activity log' }).click();
        await page.waitForURL(/model=openai/);
      });

      it('shows spend, calls and errors on the overview with a breakdown', async () => {
        const { page } = h;
        await h.open('/', 'Overview');
        await page.locator('.kpi', { hasText: 'Calls' }).getByText('4', { exact: true }).waitFor();
        await page.getByRole('rowheader', { name: 'openai/gpt-test', exact: true }).waitFor();
        await page.getByLabel('Break down by').selectOption('key');
        await page.getByRole('rowheader', { name: 'gateway-test', exact: true }).waitFor();
        await page.getByLabel('Last 30 days (daily)').check();
        await page.getByRole('heading', { name: 'Closest to their limits' }).waitFor();
        assert.equal((await page.locator('canvas').count()) >= 3, true, 'three charts drawn');
        await h.assertAccessible('the overview');
      });

      it('lists the catalog with prices and each endpoint’s health', async () => {
        const { page } = h;
        await h.open('/models', 'Models and providers');
        await page.getByRole('rowheader', { name: 'openai/gpt-test', exact: true }).first().waitFor();
        await page
          .locator('tr', { hasText: 'claude-test' })
          .getByText(/closed|open/)
          .first()
          .waitFor();
        await h.assertAccessible('the models page');
      });
    });
  }
});
