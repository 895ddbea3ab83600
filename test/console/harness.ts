// One console under test: the real server (with the fake upstream behind its catalog) on a fresh
// SQLite file or PostgreSQL database, and a fresh browser context signed in through the sign-in page.
import assert from 'node:assert/strict';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { startGateway, type GatewayHarness } from '../support/gateway.js';
import type { TestDialect } from '../support/server.js';
import { a11yViolations, seriousA11yViolations } from './browser.js';

export interface ConsoleHarness {
  gw: GatewayHarness;
  context: BrowserContext;
  page: Page;
  /** `http://127.0.0.1:port/console/` */
  consoleUrl: string;
  /** Opens the console and signs in with `token` (the server's management key by default). */
  signIn(token?: string): Promise<void>;
  /** Goes to a console route, e.g. `/keys`, and waits for its heading. */
  open(route: string, heading: string | RegExp): Promise<void>;
  /** Management API call with the bearer token (test setup, not what the console does). */
  api<T>(method: string, path: string, body?: unknown): Promise<T>;
  /** Fails with the list of serious/critical axe violations of the current page. */
  assertAccessible(what: string): Promise<void>;
  /** Fails with every axe violation of the current page, whatever its impact. */
  assertNoViolations(what: string): Promise<void>;
  close(): Promise<void>;
}

export async function startConsole(browser: Browser, dialect: TestDialect): Promise<ConsoleHarness> {
  const gw = await startGateway({ dialect });
  const consoleUrl = `${gw.server.url}/console/`;
  const context = await browser.newContext({ viewport: { width: 1360, height: 900 } });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: gw.server.url });
  context.setDefaultTimeout(15_000);
  const page = await context.newPage();
  const api = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    const res = await fetch(`${gw.server.api}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${gw.server.managementToken}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    assert.ok(res.ok, `${method} ${path} answered ${res.status}: ${text}`);
    return JSON.parse(text) as T;
  };
  return {
    gw,
    context,
    page,
    consoleUrl,
    api,
    signIn: async (token = gw.server.managementToken) => {
      await context.clearCookies();
      await page.goto(consoleUrl);
      await page.getByLabel('Management key').fill(token);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('navigation', { name: 'Console' }).waitFor();
    },
    open: async (route, heading) => {
      // A fresh load, so data written through the API since the last visit is read again.
      await page.goto('about:blank');
      await page.goto(`${consoleUrl}#${route}`);
      await page.getByRole('heading', { level: 1, name: heading }).waitFor();
    },
    assertAccessible: async (what) => {
      const violations = await seriousA11yViolations(page);
      assert.deepEqual(
        violations.map((v) => `${v.impact} ${v.id}: ${v.help} at ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
        [],
        `accessibility violations on ${what}`,
      );
    },
    assertNoViolations: async (what) => {
      const violations = await a11yViolations(page);
      assert.deepEqual(
        violations.map((v) => `${v.impact} ${v.id}: ${v.help} at ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
        [],
        `accessibility violations on ${what}`,
      );
    },
    close: async () => {
      await context.close();
      await gw.close();
    },
  };
}
