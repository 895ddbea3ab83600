import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { dialects } from '../support/server.js';
import { launchBrowser } from './browser.js';
import { startConsole, type ConsoleHarness } from './harness.js';

interface GuardrailBody {
  data: {
    id: string;
    name: string;
    limit_usd: number | null;
    reset_interval: string | null;
    allowed_models: string[] | null;
    content_filters: { pattern: string }[] | null;
  };
}

describe('console: guardrails', () => {
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

      it('creates a guardrail (a bad regex is rejected inline), edits it, assigns it and tries its filters', async () => {
        const { page } = h;
        await h.open('/guardrails', 'Guardrails');
        await page.getByRole('link', { name: 'New guardrail' }).click();
        await page.getByRole('heading', { level: 1, name: 'New guardrail' }).waitFor();
        await page.getByLabel('Name', { exact: true }).fill('eng policy');
        await page.getByLabel('Email addresses').check();
        await page.getByRole('button', { name: 'Add custom filter' }).click();
        const pattern = page.getByLabel('Pattern (RE2)');
        await pattern.fill('ticket-(?=[0-9])');
        await page.getByText(/^Invalid pattern: /).waitFor();
        assert.equal(await pattern.getAttribute('aria-invalid'), 'true');
        assert.equal(
          await page.getByRole('button', { name: 'Create guardrail' }).isDisabled(),
          true,
          'no save while invalid',
        );

        await pattern.fill('ticket-[0-9]+');
        await page.getByText(/^Invalid pattern: /).waitFor({ state: 'detached' });
        await page.getByRole('button', { name: 'Create guardrail' }).click();
        await page.getByRole('status').filter({ hasText: 'Guardrail “eng policy” created.' }).waitFor();
        const id = /#\/guardrails\/([0-9a-f-]{36})/.exec(page.url())?.[1];
        assert.ok(id !== undefined, `navigated to the new guardrail (${page.url()})`);
        const created = await h.api<GuardrailBody>('GET', `/guardrails/${id}`);
        assert.deepEqual(
          created.data.content_filters?.map((f) => f.pattern),
          ['ticket-[0-9]+'],
        );

        await page.getByLabel('Limit (USD)').fill('5');
        await page.getByLabel('Resets').selectOption('monthly');
        await page.getByLabel('Add to allowed models').fill('openai/gpt-test-2026-01-01');
        await page.getByRole('group', { name: 'Allowed models' }).getByRole('button', { name: 'Add' }).click();
        await page.getByRole('button', { name: 'Save changes' }).click();
        await page
          .getByRole('status')
          .filter({ hasText: /^Saved at / })
          .waitFor();
        const edited = await h.api<GuardrailBody>('GET', `/guardrails/${id}`);
        assert.equal(edited.data.limit_usd, 5);
        assert.equal(edited.data.reset_interval, 'monthly');
        assert.deepEqual(edited.data.allowed_models, ['openai/gpt-test-2026-01-01']);

        const keys = await h.api<{ data: { hash: string; name: string }[] }>('GET', '/keys');
        await page
          .getByLabel('Assign a key')
          .selectOption(keys.data.find((k) => k.name === 'gateway-test')?.hash ?? '');
        await page.getByRole('button', { name: 'Assign key' }).click();
        await page.getByRole('link', { name: 'gateway-test' }).waitFor();
        const assigned = await h.api<{ data: { key_name: string }[] }>('GET', `/guardrails/${id}/assignments/keys`);
        assert.deepEqual(
          assigned.data.map((a) => a.key_name),
          ['gateway-test'],
        );

        await page.getByLabel('Text to scan').fill('Mail bob@example.com about ticket-42');
        await page.getByRole('button', { name: 'Run filters' }).click();
        const result = page.getByTestId('scan-result');
        await result.getByText('redacted', { exact: true }).waitFor();
        const redacted = (await result.getByTestId('redacted-text').textContent()) ?? '';
        assert.ok(!redacted.includes('bob@example.com'), `email redacted: ${redacted}`);
        assert.ok(!redacted.includes('ticket-42'), `custom pattern redacted: ${redacted}`);
        await h.assertAccessible('the guardrail editor');
      });

      it('shows the server’s 400 on the field when a save is refused', async () => {
        const { page } = h;
        await h.open('/guardrails/new', 'New guardrail');
        await page.getByLabel('Name', { exact: true }).fill('budget without limit');
        await page.getByLabel('Resets').selectOption('daily');
        await page.getByRole('button', { name: 'Create guardrail' }).click();
        await page
          .getByRole('alert')
          .filter({ hasText: /^400: / })
          .waitFor();
        assert.equal(await page.getByLabel('Resets').getAttribute('aria-invalid'), 'true');
      });
    });
  }
});
