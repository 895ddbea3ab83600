import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { dialects } from '../support/server.js';
import { startGateway, type GatewayHarness } from '../support/gateway.js';
import { ssoEnv, startIdp, type TestIdp } from '../support/oidc-idp.js';
import { launchBrowser, seriousA11yViolations } from './browser.js';
import { createTeam, mgmt, type TeamFixture } from './roles-support.js';

const USERS = {
  owner: { email: 'owner@example.test', email_verified: true, groups: ['sy-owners'] },
  wsadmin: { email: 'wsadmin@example.test', email_verified: true, groups: ['team-admins'] },
  member: { email: 'member@example.test', email_verified: true },
  viewer: { email: 'viewer@example.test', email_verified: true, groups: ['team-viewers'] },
  nobody: { email: 'nobody@example.test', email_verified: true },
  unverified: { email: 'outsider@example.test', email_verified: false },
};

/** A request of the signed-in page itself: its cookie and its session's anti-CSRF token. */
async function apiStatus(page: Page, method: string, path: string, body?: unknown): Promise<number> {
  return page.evaluate(
    async ([m, p, b]) => {
      const session = (await (await fetch('/api/v1/console/session')).json()) as { data: { csrf_token: string } };
      const res = await fetch(`/api/v1${p}`, {
        method: m,
        headers: { 'x-csrf-token': session.data.csrf_token, 'content-type': 'application/json' },
        body: b === null ? undefined : JSON.stringify(b),
      });
      return res.status;
    },
    [method, path, body ?? null] as const,
  );
}

async function assertAccessible(page: Page, what: string): Promise<void> {
  const violations = await seriousA11yViolations(page);
  assert.deepEqual(
    violations.map((v) => `${v.id}: ${v.help}`),
    [],
    `accessibility violations on ${what}`,
  );
}

describe('console: single sign-on through a real OpenID provider', () => {
  let browser: Browser;
  before(async () => {
    browser = await launchBrowser();
  });
  after(() => browser.close());

  for (const dialect of dialects()) {
    describe(dialect, () => {
      let idp: TestIdp;
      let gw: GatewayHarness;
      let team: TeamFixture;
      const contexts: BrowserContext[] = [];

      before(async () => {
        idp = await startIdp(USERS);
        gw = await startGateway({
          dialect,
          env: ssoEnv(idp, {
            SWITCHYARD_OIDC_SCOPES: 'openid email profile groups',
            SWITCHYARD_OIDC_ALLOWED_DOMAINS: 'example.test',
            SWITCHYARD_OIDC_ROLE_MAP: 'sy-owners=org:owner; team-admins=team:admin; team-viewers=team:viewer',
          }),
        });
        idp.configure(`${gw.server.url}/console/auth/callback`);
        team = await createTeam(gw);
        // The IdP's groups, not these settings, must make the owner an owner and the admin an admin.
        await mgmt(gw, 'PATCH', `/organization/members/${team.ids.owner}`, { role: 'org:member' });
        await mgmt(gw, 'PATCH', `/workspaces/team/members/${team.ids.wsadmin}`, { role: 'viewer' });
      });
      after(async () => {
        for (const c of contexts) await c.close();
        await gw.close();
        await idp.close();
      });

      /** A fresh browser that reaches only loopback addresses (the IdP's pages link a web font). */
      const freshPage = async (): Promise<Page> => {
        const context = await browser.newContext({ viewport: { width: 1366, height: 900 } });
        contexts.push(context);
        context.setDefaultTimeout(15_000);
        await context.route('**/*', (route) =>
          new URL(route.request().url()).hostname === '127.0.0.1' ? route.continue() : route.abort(),
        );
        return context.newPage();
      };

      /** Through the whole redirect flow: console → IdP login (and consent) → callback → console. */
      const ssoSignIn = async (login: keyof typeof USERS): Promise<Page> => {
        const page = await freshPage();
        await page.goto(`${gw.server.url}/console/`);
        await page.getByRole('link', { name: 'Sign in with SSO' }).click();
        await page.locator('input[name=login]').fill(login);
        await page.locator('input[name=password]').fill('any password');
        await page.locator('button[type=submit]').click();
        await page.waitForLoadState();
        if (page.url().startsWith(idp.issuer)) await page.getByRole('button', { name: 'Continue' }).click();
        await page.waitForURL((url) => url.href.startsWith(gw.server.url));
        return page;
      };

      it('offers "Sign in with SSO" on an accessible sign-in page', async () => {
        const page = await freshPage();
        await page.goto(`${gw.server.url}/console/`);
        await page.getByRole('link', { name: 'Sign in with SSO' }).waitFor();
        await page.getByLabel('Management key').waitFor();
        await assertAccessible(page, 'the sign-in page with SSO');
      });

      it('signs in an owner made owner by an IdP group; the owner may set roles (UI and API)', async () => {
        const page = await ssoSignIn('owner');
        await page.getByRole('navigation', { name: 'Console' }).waitFor();
        await page.getByText('Signed in as owner (owner@example.test), organization owner').waitFor();
        assert.equal(await apiStatus(page, 'GET', '/audit-log'), 200);
        assert.equal(
          await apiStatus(page, 'PATCH', `/organization/members/${team.ids.outsider}`, { role: 'org:member' }),
          200,
        );
        await page.goto(`${gw.server.url}/console/#/workspaces/default`);
        const role = page.getByLabel('Role of outsider <outsider@example.test>', { exact: true });
        await role.selectOption('viewer');
        for (let i = 0; i < 50; i += 1) {
          const rows = await mgmt<{ data: { user_id: string; role: string }[] }>(
            gw,
            'GET',
            '/workspaces/default/members?limit=100',
          );
          if (rows.data.find((r) => r.user_id === team.ids.outsider)?.role === 'viewer') break;
          assert.ok(i < 49, 'the role set in the console was saved');
          await new Promise((r) => setTimeout(r, 100));
        }
        await assertAccessible(page, 'the members page of an owner');
      });

      it('signs in a workspace admin (from an IdP group): keys of the team yes, the audit log no', async () => {
        const page = await ssoSignIn('wsadmin');
        await page.getByRole('navigation', { name: 'Console' }).waitFor();
        assert.equal(await apiStatus(page, 'POST', '/keys', { name: 'admin key', workspace_id: team.teamId }), 201);
        assert.equal(
          await apiStatus(page, 'PATCH', `/workspaces/team/members/${team.ids.member}`, { role: 'member' }),
          200,
        );
        assert.equal(await apiStatus(page, 'GET', '/audit-log'), 403);
        assert.equal(await apiStatus(page, 'POST', '/workspaces', { name: 'X', slug: 'x' }), 403);
      });

      it('signs in a workspace member: own keys yes, roles no (the refusal shows in the console)', async () => {
        const page = await ssoSignIn('member');
        await page.getByRole('navigation', { name: 'Console' }).waitFor();
        assert.equal(await apiStatus(page, 'POST', '/keys', { name: 'my key', workspace_id: team.teamId }), 201);
        assert.equal(
          await apiStatus(page, 'POST', '/keys', {
            name: 'x',
            workspace_id: team.teamId,
            creator_user_id: team.ids.wsadmin,
          }),
          403,
        );
        await page.goto(`${gw.server.url}/console/#/workspaces/team`);
        await page.getByLabel('Role of viewer <viewer@example.test>', { exact: true }).selectOption('admin');
        await page.getByRole('alert').filter({ hasText: 'Your console role does not allow this' }).waitFor();
      });

      it('signs in a viewer (from an IdP group): reads yes, writes no', async () => {
        const page = await ssoSignIn('viewer');
        await page.getByRole('navigation', { name: 'Console' }).waitFor();
        assert.equal(await apiStatus(page, 'GET', `/keys?workspace_id=${team.teamId}`), 200);
        assert.equal(await apiStatus(page, 'POST', '/keys', { name: 'nope', workspace_id: team.teamId }), 403);
        assert.equal(await apiStatus(page, 'GET', `/workspaces/team/members`), 200);
      });

      it('refuses an email that matches no member, and an unverified one, with a clear page', async () => {
        const page = await ssoSignIn('nobody');
        await page.getByRole('heading', { level: 1, name: 'You cannot sign in to this console' }).waitFor();
        await page.getByText('No member of this organization has the email address nobody@example.test').waitFor();
        await assertAccessible(page, 'the refusal page');
        const unverified = await ssoSignIn('unverified');
        await unverified.getByText('has not verified the email address outsider@example.test').waitFor();
        const audit = await mgmt<{ data: { changes: { email?: string } | null }[] }>(
          gw,
          'GET',
          '/audit-log?action=console.sign_in_failed',
        );
        const emails = audit.data.map((r) => r.changes?.email);
        assert.ok(emails.includes('nobody@example.test') && emails.includes('outsider@example.test'));
        const signIns = await mgmt<{ data: unknown[] }>(
          gw,
          'GET',
          `/audit-log?action=console.sign_in&target_id=${team.ids.owner}`,
        );
        assert.ok(signIns.data.length > 0, 'sign-ins are audited');
      });

      it('ends a disabled member’s session on their next request', async () => {
        const page = await ssoSignIn('member');
        await page.getByRole('navigation', { name: 'Console' }).waitFor();
        // The owner disables the member with the console's control.
        const owner = await ssoSignIn('owner');
        await owner.goto(`${gw.server.url}/console/#/workspaces/default`);
        await owner.getByLabel('Disable member <member@example.test>', { exact: true }).click();
        for (let i = 0; ; i += 1) {
          const list = await mgmt<{ data: { id: string; disabled: boolean }[] }>(gw, 'GET', '/organization/members');
          if (list.data.find((m) => m.id === team.ids.member)?.disabled === true) break;
          assert.ok(i < 50, 'the member was disabled from the console');
          await new Promise((r) => setTimeout(r, 100));
        }
        await owner
          .getByLabel('Disable member <member@example.test>', { exact: true })
          .and(owner.locator(':checked'))
          .waitFor();
        await page.evaluate(`location.hash = '#/keys'`);
        await page.getByText('Your session has ended. Sign in again to continue.').waitFor();
        const again = await ssoSignIn('member');
        await again.getByText('The member member@example.test is disabled.').waitFor();
      });
    });
  }
});
