import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { loadServerConfig } from '../../src/config/env.js';
import { dialects } from '../support/server.js';
import { startGateway, type GatewayHarness } from '../support/gateway.js';
import { ssoEnv, startIdp, type TestIdp } from '../support/oidc-idp.js';
import { signIn } from './support.js';

describe('console: single sign-on under attack, and the key sign-in switched off', () => {
  it('refuses to switch the key sign-in off without single sign-on, and bad role maps', () => {
    assert.throws(() => loadServerConfig({ SWITCHYARD_CONSOLE_KEY_SIGN_IN: 'false' }), /needs single sign-on/);
    const sso = { SWITCHYARD_OIDC_ISSUER: 'https://idp.example.test', SWITCHYARD_OIDC_CLIENT_ID: 'c' };
    assert.throws(() => loadServerConfig({ ...sso, SWITCHYARD_OIDC_ROLE_MAP: 'devs=team:root' }), /not a role/);
    assert.throws(() => loadServerConfig({ SWITCHYARD_OIDC_ISSUER: 'https://idp.example.test' }), /CLIENT_ID/);
    const config = loadServerConfig({ ...sso, SWITCHYARD_OIDC_ROLE_MAP: 'a=org:owner; a=team:viewer;b=default:admin' });
    assert.deepEqual(config.console.oidc?.roleMap.get('a'), [{ org: 'owner' }, { workspace: 'team', role: 'viewer' }]);
    assert.deepEqual(config.console.oidc?.defaultRole, { workspace: 'default', role: 'viewer' });
  });

  for (const dialect of dialects()) {
    describe(dialect, () => {
      let idp: TestIdp;
      let gw: GatewayHarness;
      before(async () => {
        idp = await startIdp({ someone: { email: 'someone@example.test', email_verified: true } });
        gw = await startGateway({
          dialect,
          env: ssoEnv(idp, { SWITCHYARD_CONSOLE_KEY_SIGN_IN: 'false' }),
        });
        idp.configure(`${gw.server.url}/console/auth/callback`);
      });
      after(async () => {
        await gw.close();
        await idp.close();
      });

      it('starts a sign-in with S256 PKCE, state and nonce bound to a short-lived HttpOnly cookie', async () => {
        const res = await fetch(`${gw.server.url}/console/auth/login`, { redirect: 'manual' });
        assert.equal(res.status, 302);
        const to = new URL(res.headers.get('location') ?? '');
        assert.equal(to.origin, idp.issuer);
        assert.equal(to.searchParams.get('code_challenge_method'), 'S256');
        assert.equal(to.searchParams.get('redirect_uri'), `${gw.server.url}/console/auth/callback`);
        const cookie = res.headers.get('set-cookie') ?? '';
        assert.match(
          cookie,
          /^switchyard_oidc=[\w-]+\.[\w-]+\.[\w-]+; HttpOnly; SameSite=Lax; Path=\/console\/auth; Max-Age=600$/,
        );
        const [state, nonce] = (cookie.split(';')[0] ?? '').split('=')[1]?.split('.') ?? [];
        assert.equal(to.searchParams.get('state'), state);
        assert.equal(to.searchParams.get('nonce'), nonce);
      });

      it('refuses a callback without the cookie of the sign-in (login CSRF), and one with another state', async () => {
        const bare = await fetch(`${gw.server.url}/console/auth/callback?code=stolen&state=x`, { redirect: 'manual' });
        assert.equal(bare.status, 400);
        assert.match(await bare.text(), /expired or was started in another browser/);
        assert.equal(bare.headers.get('set-cookie')?.includes('switchyard_session='), false);

        const started = await fetch(`${gw.server.url}/console/auth/login`, { redirect: 'manual' });
        const flow = (started.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
        const forged = await fetch(`${gw.server.url}/console/auth/callback?code=attackers-code&state=attackers-state`, {
          headers: { cookie: flow },
          redirect: 'manual',
        });
        assert.equal(forged.status, 400);
        assert.match(await forged.text(), /could not be verified/);
        assert.equal(forged.headers.get('set-cookie')?.includes('switchyard_session='), false);
        assert.match(forged.headers.get('content-security-policy') ?? '', /default-src 'self'/);
      });

      it('offers only SSO when the key sign-in is off; the key keeps working on the API', async () => {
        const methods = (await (await fetch(`${gw.server.api}/console/auth`)).json()) as { data: unknown };
        assert.deepEqual(methods.data, { sso: true, key_sign_in: false });
        const refused = await signIn(gw.server, gw.server.managementToken);
        assert.equal(refused.status, 403);
        assert.equal(refused.setCookie, '');
        const bearer = await fetch(`${gw.server.api}/workspaces`, {
          headers: { authorization: `Bearer ${gw.server.managementToken}` },
        });
        assert.equal(bearer.status, 200);
      });
    });
  }
});
