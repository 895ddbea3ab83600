import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { CONSOLE_CSP } from '../../src/http/plugins/security-headers.js';
import { startTestServer, type TestServer } from '../support/server.js';

const get = (server: TestServer, path: string, headers: Record<string, string> = {}) =>
  fetch(`${server.url}${path}`, { headers, redirect: 'manual' });

function assertConsoleHeaders(res: Response): void {
  assert.equal(res.headers.get('content-security-policy'), CONSOLE_CSP);
  assert.equal(res.headers.get('x-content-type-options'), 'nosniff');
  assert.equal(res.headers.get('referrer-policy'), 'no-referrer');
  assert.equal(res.headers.get('x-frame-options'), 'DENY');
}

describe('console static serving', () => {
  let server: TestServer;
  const dir = mkdtempSync(join(tmpdir(), 'switchyard-console-'));
  before(async () => {
    mkdirSync(join(dir, 'assets'));
    writeFileSync(
      join(dir, 'index.html'),
      '<!doctype html><div id="root"></div><script src="/console/assets/app-1a2b.js"></script>',
    );
    writeFileSync(join(dir, 'assets', 'app-1a2b.js'), 'console.log("app")');
    writeFileSync(join(dir, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
    server = await startTestServer({ dialect: 'sqlite', env: { SWITCHYARD_CONSOLE_DIR: dir } });
  });
  after(async () => {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('GET / redirects to /console/', async () => {
    const res = await get(server, '/');
    assert.equal(res.status, 302);
    assert.equal(res.headers.get('location'), '/console/');
  });

  it('serves index.html with the CSP and security headers, not cached', async () => {
    const res = await get(server, '/console/');
    assert.equal(res.status, 200);
    assert.match(await res.text(), /id="root"/);
    assertConsoleHeaders(res);
    assert.equal(res.headers.get('cache-control'), 'no-cache');
  });

  it('hashed assets are immutable; other files no-cache', async () => {
    const asset = await get(server, '/console/assets/app-1a2b.js');
    assert.equal(asset.status, 200);
    assert.equal(asset.headers.get('cache-control'), 'public, max-age=31536000, immutable');
    assertConsoleHeaders(asset);
    const icon = await get(server, '/console/favicon.svg');
    assert.equal(icon.headers.get('cache-control'), 'no-cache');
  });

  it('app routes fall back to index.html; a missing asset is 404', async () => {
    const page = await get(server, '/console/keys/abc');
    assert.equal(page.status, 200);
    assert.match(await page.text(), /id="root"/);
    assertConsoleHeaders(page);
    assert.equal((await get(server, '/console/assets/missing-123.js')).status, 404);
  });

  it('API answers carry nosniff, no-referrer and no-store', async () => {
    const res = await fetch(`${server.api}/models`);
    assert.equal(res.headers.get('x-content-type-options'), 'nosniff');
    assert.equal(res.headers.get('referrer-policy'), 'no-referrer');
    assert.equal(res.headers.get('cache-control'), 'no-store');
  });
});

describe('console not built', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer({
      dialect: 'sqlite',
      env: { SWITCHYARD_CONSOLE_DIR: join(tmpdir(), 'no-such-console') },
    });
  });
  after(() => server.close());

  it('answers 503 saying how to build it (HTML, or the envelope for JSON clients)', async () => {
    const page = await get(server, '/console/');
    assert.equal(page.status, 503);
    assert.match(await page.text(), /npm run build:web/);
    assertConsoleHeaders(page);
    const json = await get(server, '/console/keys', { accept: 'application/json' });
    assert.equal(json.status, 503);
    const body = (await json.json()) as { error: { message: string } };
    assert.match(body.error.message, /build:web/);
  });
});
