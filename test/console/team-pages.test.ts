import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { dialects } from '../support/server.js';
import { LONG_NAME, teamConsoleHooks } from './team-fixture.js';

// What these check is the browser's rendering, the same over either store; the API paths they use
// run on both dialects in test/api/console-edits.test.ts and test/console/team-edits.test.ts. One
// dialect keeps each file within the runner's per-file time limit.
for (const dialect of dialects().slice(0, 1)) {
  describe(`console: layout, wording, names, CSV export (${dialect})`, () => {
    const t = teamConsoleHooks(dialect);

    it('long names are cut with the whole name in the title', async () => {
      const { page } = t.h;
      await t.h.open('/workspaces', 'Workspaces and members');
      const cell = page.locator('.trunc', { hasText: LONG_NAME }).first();
      assert.equal(await cell.getAttribute('title'), LONG_NAME);
      const box = await cell.boundingBox();
      assert.ok(box !== null && box.width < 400, `the name takes ${box?.width} px`);
    });

    it('a server error shows once, with Retry and without "Loading"; Retry loads the page', async () => {
      const { page } = t.h;
      await page.route('**/api/v1/analytics/usage**', (route) =>
        route.fulfill({
          status: 500,
          contentType: 'application/json',
          body: '{"error":{"code":500,"message":"boom"}}',
        }),
      );
      await t.h.open('/', 'Overview');
      const alert = page.getByRole('alert').filter({ hasText: 'boom' });
      await alert.waitFor();
      assert.equal(await page.getByText('Loading usage…').count(), 0);
      await page.unroute('**/api/v1/analytics/usage**');
      await alert.getByRole('button', { name: /Retry/ }).click();
      await page.locator('.kpi', { hasText: 'Calls' }).waitFor();
      assert.equal(await alert.count(), 0);
    });

    it('a status banner does not follow to another page', async () => {
      const { page } = t.h;
      await t.h.open(`/guardrails/${t.guardrailId}`, 'Budget guard');
      await page.getByLabel('Description').fill('edited');
      await page.getByRole('button', { name: 'Save changes' }).click();
      const banner = page.getByRole('status').filter({ hasText: /^Saved at / });
      await banner.waitFor();
      await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Guardrails' }).click();
      await page.getByRole('heading', { level: 1, name: 'Guardrails' }).waitFor();
      assert.equal(await banner.count(), 0);
      await page.goBack();
      await page.getByRole('heading', { level: 1, name: 'Budget guard' }).waitFor();
      assert.equal(await banner.count(), 0);
    });

    it('names instead of ids: generation detail shows the key and workspace by name', async () => {
      const { page } = t.h;
      await t.h.open(`/activity/${t.generationId}`, /^Generation /);
      await page.getByRole('link', { name: /^gateway-test \(/ }).waitFor();
      await page.getByRole('link', { name: 'Default', exact: false }).first().waitFor();
    });

    it('the models page shows the prices the catalog lists for each endpoint', async () => {
      const { page } = t.h;
      await t.h.open('/models', 'Models and providers');
      const table = page.locator('table').first();
      const row = table.locator('tr', { hasText: 'gpt-test' }).first();
      await row.waitFor();
      const cells = await row.locator('td.num').allTextContents();
      assert.ok(
        cells.some((c) => c.startsWith('$')),
        `endpoint prices shown: ${cells.join(' | ')}`,
      );
    });

    it('exports the activity log under the current filter as CSV', async () => {
      const { page } = t.h;
      await t.h.open('/activity?model=openai/gpt-test', 'Activity');
      await page.locator('tbody tr.clickable').nth(1).waitFor();
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.getByRole('button', { name: 'Export CSV' }).click(),
      ]);
      assert.match(download.suggestedFilename(), /^switchyard-activity-.*\.csv$/);
      const path = await download.path();
      const lines = readFileSync(path, 'utf8').trim().split('\r\n');
      const header = lines[0]?.split(',') ?? [];
      assert.ok(header.includes('id') && header.includes('model') && header.includes('cost_usd'), header.join());
      assert.equal(lines.length, 3, 'a header and the two generations');
      const modelAt = header.indexOf('model');
      assert.ok(lines.slice(1).every((l) => l.split(',')[modelAt] === 'openai/gpt-test'));
      assert.ok(lines.some((l) => l.includes(t.generationId)));
      await page.getByRole('status').filter({ hasText: 'Exported 2 generation(s).' }).waitFor();

      await t.h.open('/activity?status=error', 'Activity');
      const [empty] = await Promise.all([
        page.waitForEvent('download'),
        page.getByRole('button', { name: 'Export CSV' }).click(),
      ]);
      assert.equal(readFileSync(await empty.path(), 'utf8').trim(), '', 'no generation matches: an empty file');
    });
  });
}
