import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { dialects } from '../support/server.js';
import { a11yViolations } from './browser.js';
import { teamConsoleHooks } from './team-fixture.js';

/** Waits until no status on the page says "Loading…" (polled with evaluate: the CSP forbids eval). */
async function settled(page: Page): Promise<void> {
  const loading = "[...document.querySelectorAll('[role=status]')].some((e) => e.textContent.startsWith('Loading'))";
  for (let i = 0; i < 200 && (await page.evaluate<boolean>(loading)); i++) await new Promise((r) => setTimeout(r, 50));
}

// What these check is the browser's rendering, the same over either store; the API paths they use
// run on both dialects in test/api/console-edits.test.ts and test/console/team-edits.test.ts. One
// dialect keeps each file within the runner's per-file time limit.
for (const dialect of dialects().slice(0, 1)) {
  describe(`console: every page under axe at 1366 and 390 px (${dialect})`, () => {
    const t = teamConsoleHooks(dialect);

    const pages = (): [string, string | RegExp][] => [
      ['/', 'Overview'],
      ['/activity', 'Activity'],
      [`/activity/${t.generationId}`, /^Generation /],
      ['/keys', 'API keys'],
      ['/workspaces', 'Workspaces and members'],
      ['/workspaces/long', 'Workspaces and members'],
      ['/guardrails', 'Guardrails'],
      ['/guardrails/new', 'New guardrail'],
      [`/guardrails/${t.guardrailId}`, 'Budget guard'],
      ['/presets', 'Presets'],
      ['/presets/helper', /^Preset/],
      ['/models', 'Models and providers'],
      ['/audit-log', 'Audit log'],
    ];

    for (const [width, height] of [
      [1366, 900],
      [390, 844],
    ] as const) {
      it(`every page has no axe violation at ${width} px and never scrolls the page sideways`, async () => {
        const { page } = t.h;
        await page.setViewportSize({ width, height });
        const problems: string[] = [];
        for (const [route, heading] of pages()) {
          // Hash navigation (no reload), then wait until nothing on the page is still loading.
          await page.evaluate(`location.hash = ${JSON.stringify(route)}`);
          await page.getByRole('heading', { level: 1, name: heading }).waitFor();
          await settled(page);
          for (const v of await a11yViolations(page))
            problems.push(`${route}: ${v.impact} ${v.id} at ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
          const overflow = await page.evaluate<number>('document.documentElement.scrollWidth - window.innerWidth');
          if (overflow > 1) problems.push(`${route}: ${overflow} px wider than the window`);
          const title = await page.title();
          if (!title.endsWith(' · Switchyard') || title.startsWith('Not found')) problems.push(`${route}: ${title}`);
        }
        assert.deepEqual(problems, [], `at ${width} px`);
        const nav = page.getByRole('navigation', { name: 'Console' });
        const menu = page.getByRole('button', { name: 'Menu' });
        if (width < 800) {
          assert.equal(await nav.isVisible(), false, 'the navigation is folded');
          await menu.click();
          await nav.getByRole('link', { name: 'Keys' }).click();
          await page.getByRole('heading', { level: 1, name: 'API keys' }).waitFor();
          // The menu folds in an effect after the chosen page renders: give that render its frame.
          await nav.waitFor({ state: 'hidden', timeout: 5000 }).catch(() => undefined);
          assert.equal(await nav.isVisible(), false, 'choosing a page folds it again');
        } else {
          assert.equal(await menu.isVisible(), false);
          assert.equal(await nav.isVisible(), true);
        }
        await page.setViewportSize({ width: 1360, height: 900 });
      });
    }

    it('the sign-in page has its own title and no axe violation at either width', async () => {
      const context = await t.browser.newContext({ viewport: { width: 390, height: 844 } });
      const page = await context.newPage();
      await page.goto(t.h.consoleUrl);
      await page.getByRole('heading', { level: 1, name: 'Sign in to Switchyard' }).waitFor();
      assert.equal(await page.title(), 'Sign in · Switchyard');
      for (const width of [390, 1366]) {
        await page.setViewportSize({ width, height: 844 });
        const violations = await a11yViolations(page);
        assert.deepEqual(
          violations.map((v) => `${v.id}: ${v.help}`),
          [],
          `the sign-in page at ${width} px`,
        );
      }
      await context.close();
    });
  });
}
