import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, it, test } from 'node:test';
import { generateToken } from '../../src/domain/keys/tokens.js';
import { freshPgDatabase, pgUrlOrSkip } from '../harness/env.js';
import { MutableClock } from '../support/clock.js';
import { call, dialects, startTestServer, type TestServer } from '../support/server.js';
import { asBrowser, signIn } from './support.js';
import { asCli } from '../../src/domain/audit/record.js';

interface AuditRow {
  action: string;
  target: { type: string; id: string };
  actor: { type: string; key_hash: string | null };
  changes: Record<string, unknown> | null;
}

/** A second management key, made as the CLI makes one. */
async function managementKey(server: TestServer): Promise<{ token: string; hash: string }> {
  const services = server.running.services;
  const owner = await services.store.members.findByEmail('owner@switchyard.local');
  assert.ok(owner);
  const issued = await services.keys.createManagementKey({ name: 'console', memberId: owner.id }, asCli);
  return { token: issued.token, hash: issued.record.hash };
}

/** Disables or deletes a management key as the CLI does: a store write, then the change feed. */
async function changeKey(server: TestServer, hash: string, change: 'disable' | 'delete'): Promise<void> {
  const { store, changeFeed } = server.running.services;
  if (change === 'disable') await store.keys.update(hash, { disabled: true }, new Date().toISOString());
  else await store.keys.delete(hash);
  await changeFeed.publish('keys', hash);
}

for (const dialect of dialects()) {
  describe(`console sessions (${dialect})`, () => {
    let server: TestServer;
    const clock = new MutableClock('2026-11-24T06:00:00.000Z');
    let apiKey = '';

    before(async () => {
      server = await startTestServer({
        dialect,
        clock,
        env: { SWITCHYARD_CONSOLE_SESSION_IDLE_MS: '3600000', SWITCHYARD_CONSOLE_SIGNIN_MAX_FAILURES: '3' },
      });
      apiKey = (
        await call<{ key: string }>(server, 'POST', '/keys', { token: server.managementToken, body: { name: 'app' } })
      ).body.key;
    });
    after(() => server.close());

    it('signs in with a management key: HttpOnly SameSite=Strict cookie, CSRF token, no key in the answer', async () => {
      const res = await signIn(server, server.managementToken);
      assert.equal(res.status, 200);
      assert.match(res.setCookie, /^switchyard_session=[A-Za-z0-9_-]{40,}; HttpOnly; SameSite=Strict; Path=\//);
      assert.doesNotMatch(res.setCookie, /Secure/);
      assert.equal(typeof res.body.data.csrf_token, 'string');
      assert.equal(res.body.data.idle_timeout_ms, 3_600_000);
      assert.ok(!JSON.stringify(res.body).includes(server.managementToken));
      assert.equal(res.headers.get('cache-control'), 'no-store');

      const who = await asBrowser<{ data: { csrf_token: string; key: { name: string } } }>(
        server,
        res.browser,
        'GET',
        '/console/session',
        { csrf: false },
      );
      assert.equal(who.status, 200);
      assert.equal(who.body.data.csrf_token, res.body.data.csrf_token);
      assert.equal(who.body.data.key.name, 'bootstrap');
    });

    it('Secure behind HTTPS (X-Forwarded-Proto) in auto mode', async () => {
      const res = await signIn(server, server.managementToken, { 'x-forwarded-proto': 'https' });
      assert.match(res.setCookie, /; Secure/);
    });

    it('the cookie works on management routes only with the X-CSRF-Token header', async () => {
      const { browser } = await signIn(server, server.managementToken);
      assert.equal((await asBrowser(server, browser, 'GET', '/keys')).status, 200);
      assert.equal((await asBrowser(server, browser, 'GET', '/analytics/usage')).status, 200);
      assert.equal((await asBrowser(server, browser, 'GET', '/models')).status, 200);
      const missing = await asBrowser<{ error: { code: number; message: string } }>(server, browser, 'GET', '/keys', {
        csrf: false,
      });
      assert.equal(missing.status, 403);
      assert.match(missing.body.error.message, /CSRF/);
      assert.equal(
        (await asBrowser(server, browser, 'POST', '/keys', { body: { name: 'x' }, csrf: 'nope' })).status,
        403,
      );
      const created = await asBrowser(server, browser, 'POST', '/keys', { body: { name: 'via console' } });
      assert.equal(created.status, 201);
    });

    it('the cookie is refused on model-call routes', async () => {
      const { browser } = await signIn(server, server.managementToken);
      const body = { model: 'demo/echo', messages: [{ role: 'user', content: 'hi' }] };
      const res = await asBrowser(server, browser, 'POST', '/chat/completions', { body });
      assert.equal(res.status, 401);
      assert.equal((await asBrowser(server, browser, 'GET', '/generation?id=gen-x')).status, 401);
    });

    it('an API key cannot sign in (403); a wrong key is 401', async () => {
      assert.equal((await signIn(server, apiKey)).status, 403);
      assert.equal((await signIn(server, generateToken(), { 'x-forwarded-for': '1' })).status, 401);
    });

    it('sign-ins, refused sign-ins and writes made from the console are audited with actor console', async () => {
      const ok = await signIn(server, server.managementToken);
      assert.equal(ok.status, 200);
      const keyHash = ok.body.data.key.hash;
      assert.equal((await signIn(server, generateToken())).status, 401);
      const created = await asBrowser<{ data: { hash: string } }>(server, ok.browser, 'POST', '/keys', {
        body: { name: 'made in the console' },
      });
      assert.equal(created.status, 201);
      const log = await call<{ data: AuditRow[] }>(server, 'GET', '/audit-log?limit=20', {
        token: server.managementToken,
      });
      assert.equal(log.status, 200);
      const signedIn = log.body.data.find((r) => r.action === 'console.sign_in' && r.actor.key_hash === keyHash);
      assert.equal(signedIn?.actor.type, 'console');
      assert.equal(signedIn.actor.key_hash, keyHash);
      assert.equal(signedIn.target.id, keyHash);
      // The test clock stands still: records of this test and earlier ones share one time.
      const refused = log.body.data.find(
        (r) => r.action === 'console.sign_in_failed' && r.changes?.reason === 'invalid_key',
      );
      assert.equal(refused?.actor.type, 'console');
      assert.equal(refused.actor.key_hash, null);
      const write = log.body.data.find((r) => r.action === 'key.create' && r.target.id === created.body.data.hash);
      assert.equal(write?.actor.type, 'console');
      assert.equal(write.actor.key_hash, keyHash);
      const byActor = await call<{ data: AuditRow[] }>(server, 'GET', '/audit-log?actor=console', {
        token: server.managementToken,
      });
      assert.ok(byActor.body.data.length >= 3);
      assert.ok(byActor.body.data.every((r) => r.actor.type === 'console'));
    });

    it('ends after the idle time (injected clock), and activity extends it', async () => {
      const { browser } = await signIn(server, server.managementToken);
      clock.advance(50 * 60_000);
      assert.equal((await asBrowser(server, browser, 'GET', '/keys')).status, 200);
      clock.advance(50 * 60_000);
      assert.equal((await asBrowser(server, browser, 'GET', '/keys')).status, 200);
      clock.advance(61 * 60_000);
      assert.equal((await asBrowser(server, browser, 'GET', '/keys')).status, 401);
      const who = await asBrowser(server, browser, 'GET', '/console/session', { csrf: false });
      assert.equal(who.status, 401);
      assert.match(who.headers.get('set-cookie') ?? '', /Max-Age=0/);
    });

    it('sign-out ends the session (and needs the CSRF header)', async () => {
      const { browser } = await signIn(server, server.managementToken);
      assert.equal((await asBrowser(server, browser, 'DELETE', '/console/session', { csrf: false })).status, 403);
      const out = await asBrowser(server, browser, 'DELETE', '/console/session');
      assert.equal(out.status, 200);
      assert.match(out.headers.get('set-cookie') ?? '', /Max-Age=0/);
      assert.equal((await asBrowser(server, browser, 'GET', '/keys')).status, 401);
    });

    for (const change of ['rotate', 'disable', 'delete'] as const) {
      it(`ends as soon as its management key is ${change}d`, async () => {
        const key = await managementKey(server);
        const { browser } = await signIn(server, key.token);
        assert.equal((await asBrowser(server, browser, 'GET', '/keys')).status, 200);
        if (change === 'rotate') await server.running.services.keys.rotate(key.hash, 'management', asCli);
        else await changeKey(server, key.hash, change);
        assert.equal((await asBrowser(server, browser, 'GET', '/keys')).status, 401);
        assert.equal((await asBrowser(server, browser, 'GET', '/console/session', { csrf: false })).status, 401);
      });
    }

    it('throttles failed sign-ins per address with 429 and Retry-After', async () => {
      // The earlier wrong-key and API-key attempts count too; fill up to the limit of 3.
      let res = await signIn(server, generateToken());
      while (res.status === 401) res = await signIn(server, generateToken());
      assert.equal(res.status, 429);
      assert.ok(Number(res.headers.get('retry-after')) > 0);
      // The wait is said once, in words.
      const refusal = res.body as unknown as { error: { message: string } };
      assert.equal(refusal.error.message, 'Too many failed sign-ins from this address: try again in 15 minutes');
      // Only failures are refused: the right key signs in from the throttled address.
      assert.equal((await signIn(server, server.managementToken)).status, 200);
      assert.equal((await signIn(server, generateToken())).status, 429);
      clock.advance(16 * 60_000);
      assert.equal((await signIn(server, generateToken())).status, 401);
    });
  });
}

test('a session ends on every replica when its key is rotated on another (PostgreSQL)', async (t) => {
  if (pgUrlOrSkip(t) === null) return;
  const db = await freshPgDatabase('console_replicas');
  const managementToken = generateToken();
  const env = { SWITCHYARD_KEY_CACHE_REVALIDATE_MS: '600000' };
  const shared = { url: db.url, dispose: () => Promise.resolve() };
  const servers: TestServer[] = [];
  t.after(async () => {
    for (const s of servers) await s.stop();
    await db.drop();
  });
  const a = await startTestServer({ dialect: 'postgres', db: shared, managementToken, env });
  servers.push(a);
  const b = await startTestServer({ dialect: 'postgres', db: shared, managementToken, env });
  servers.push(b);
  const key = await managementKey(a);
  const { browser } = await signIn(b, key.token);
  assert.equal((await asBrowser(b, browser, 'GET', '/keys')).status, 200);
  await a.running.services.keys.rotate(key.hash, 'management', asCli);
  // Revalidation is ten minutes: only the change feed can end the session on B.
  const deadline = Date.now() + 3000;
  let status = (await asBrowser(b, browser, 'GET', '/keys')).status;
  while (status === 200 && Date.now() < deadline) {
    await sleep(50);
    status = (await asBrowser(b, browser, 'GET', '/keys')).status;
  }
  assert.equal(status, 401);
});
