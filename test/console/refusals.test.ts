import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { dialects } from '../support/server.js';
import { launchBrowser } from './browser.js';
import { startConsole, type ConsoleHarness } from './harness.js';

async function chat(h: ConsoleHarness, token: string, body: unknown): Promise<number> {
  const res = await fetch(`${h.gw.server.api}/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  await res.arrayBuffer();
  return res.status;
}

const hi = (model: string) => ({ model, messages: [{ role: 'user', content: 'hi' }] });

describe('console: refused calls in the overview, the activity log and the generation detail', () => {
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
        const key = async (name: string, extra: Record<string, unknown> = {}) =>
          h.api<{ key: string; data: { hash: string } }>('POST', '/keys', { name, ...extra });
        const guard = async (fields: Record<string, unknown>, hash: string) => {
          const g = await h.api<{ data: { id: string } }>('POST', '/guardrails', {
            name: `g-${hash.slice(0, 6)}`,
            ...fields,
          });
          await h.api('POST', `/guardrails/${g.data.id}/assignments/keys`, { key_hashes: [hash] });
        };
        const guarded = await key('guarded-app');
        const broke = await key('broke-app', { limit: 0.000001 });
        const rated = await key('rated-app');
        await guard({ allowed_models: ['anthropic/claude-test'] }, guarded.data.hash);
        await guard({ requests_per_minute: 1 }, rated.data.hash);
        assert.equal(await chat(h, h.gw.apiKey, hi('openai/gpt-test')), 200);
        assert.equal(await chat(h, h.gw.apiKey, hi('nobody/no-such-model')), 404);
        assert.equal(await chat(h, h.gw.apiKey, { model: 'openai/gpt-test', messages: 'not a list' }), 400);
        assert.equal(await chat(h, guarded.key, hi('openai/gpt-test')), 403);
        assert.equal(await chat(h, broke.key, hi('openai/gpt-test')), 402);
        assert.equal(await chat(h, rated.key, hi('openai/gpt-test')), 200);
        assert.equal(await chat(h, rated.key, hi('openai/gpt-test')), 429);
        await h.gw.server.running.services.meter.flush();
        await h.signIn();
      });
      after(() => h.close());

      it('counts the refusals as errors on the overview', async () => {
        const { page } = h;
        await h.open('/', 'Overview');
        const errors = page.locator('.kpi', { hasText: 'Errors' });
        await errors.getByText('5', { exact: true }).waitFor();
        await errors.getByText('5 refused').waitFor();
        await page.locator('.kpi', { hasText: 'Calls' }).getByText('7', { exact: true }).waitFor();
        await h.assertAccessible('the overview with refusals');
      });

      it('filters the refusals in the activity log and shows why one was refused', async () => {
        const { page } = h;
        await h.open('/activity', 'Activity');
        const rows = page.locator('tbody tr.clickable');
        await page.getByLabel('Status').selectOption('error');
        await page.waitForURL(/status=error/);
        // The unfiltered page (7 rows) stays up until the filtered one replaces it.
        await rows.nth(5).waitFor({ state: 'detached' });
        await rows.nth(4).waitFor();
        assert.equal(await rows.count(), 5, 'the error filter finds the refusals');
        await page.getByLabel('Status').selectOption('refused');
        await page.waitForURL(/status=refused/);
        for (const [status, code] of [
          ['400', 'invalid_request'],
          ['402', 'payment_required'],
          ['403', 'permission_denied'],
          ['404', 'not_found'],
          ['429', 'rate_limit_exceeded'],
        ])
          await page.locator('tbody tr.clickable', { hasText: `${status} ${code}` }).waitFor();
        await page.getByLabel('Refused with').selectOption('402');
        await page.waitForURL(/http_status=402/);
        await rows.nth(1).waitFor({ state: 'detached' });
        assert.equal(await rows.count(), 1);
        await rows.first().getByText('broke-app').waitFor();
        await h.assertAccessible('the activity log filtered to refusals');

        await rows.first().locator('a').click();
        await page.getByRole('heading', { level: 1, name: /^Generation / }).waitFor();
        await page.getByRole('row', { name: /Refused.*402.*payment_required/ }).waitFor();
        await page.getByRole('row', { name: /Reason.*Key spending limit reached/ }).waitFor();
        await page.getByRole('row', { name: /Rule and limits.*limit:/ }).waitFor();
        await h.assertAccessible('a refused generation');
      });
    });
  }
});
