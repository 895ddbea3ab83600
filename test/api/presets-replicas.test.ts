import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { test } from 'node:test';
import { generateToken } from '../../src/domain/keys/tokens.js';
import { freshPgDatabase, pgUrlOrSkip } from '../harness/env.js';
import { call, startTestServer, type TestServer } from '../support/server.js';

/**
 * Two replicas on one PostgreSQL database. Revalidation is set to ten minutes, so only the
 * change feed can explain replica B serving what replica A wrote.
 */
test("a preset written on one replica reaches the other replica's cache through the change feed", async (t) => {
  if (pgUrlOrSkip(t) === null) return;
  const db = await freshPgDatabase('presets_replicas');
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
  const key = await call<{ key: string }>(a, 'POST', '/keys', { token: managementToken, body: { name: 'replicas' } });
  const save = (model: string) =>
    call(a, 'POST', '/presets/shared/chat/completions', { token: managementToken, body: { model } });
  const modelOnB = async () => {
    const res = await call<{ model?: string; error?: { code: number } }>(b, 'POST', '/chat/completions', {
      token: key.body.key,
      body: { model: '@preset/shared', messages: [{ role: 'user', content: 'hi' }] },
    });
    return res.status === 200 ? res.body.model : `status ${res.status}`;
  };
  /** Polls B until it answers `expected` (the feed's bound is well under two seconds). */
  const eventually = async (expected: string) => {
    const deadline = Date.now() + 3000;
    let seen = await modelOnB();
    while (seen !== expected && Date.now() < deadline) {
      await sleep(50);
      seen = await modelOnB();
    }
    assert.equal(seen, expected);
  };

  assert.equal((await save('demo/echo')).status, 200);
  await eventually('demo/echo');
  assert.equal((await save('demo/fast')).status, 200);
  await eventually('demo/fast');
  await call(a, 'PATCH', '/presets/shared', { token: managementToken, body: { designated_version: 1 } });
  await eventually('demo/echo');
  await call(a, 'PATCH', '/presets/shared', { token: managementToken, body: { status: 'archived' } });
  await eventually('status 400');
});
