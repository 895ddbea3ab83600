import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { tempSqlitePath } from '../harness/env.js';
import { call, startTestServer, type TestServer } from '../support/server.js';

const CLI = fileURLToPath(new URL('../../src/cli/main.js', import.meta.url));
const MAIN = fileURLToPath(new URL('../../src/main.js', import.meta.url));

function cli(args: string[], env: Record<string, string>) {
  const r = spawnSync(process.execPath, [CLI, ...args], { env: { ...process.env, ...env }, encoding: 'utf8' });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

describe('switchyard CLI', () => {
  const file = tempSqlitePath();
  const env = { SWITCHYARD_DATABASE_URL: `sqlite:${file.path}`, SWITCHYARD_MANAGEMENT_KEY: '' };
  let server: TestServer;

  before(async () => {
    server = await startTestServer({
      dialect: 'sqlite',
      db: { url: env.SWITCHYARD_DATABASE_URL, dispose: () => Promise.resolve(file.cleanup()) },
    });
  });
  after(() => server.close());

  it('prints help for every command and fails clearly on bad input', () => {
    const help = cli(['--help'], env);
    assert.equal(help.code, 0);
    for (const c of ['serve', 'migrate', 'keys create-management', 'keys rotate-management', 'members add'])
      assert.ok(help.out.includes(c), c);
    assert.equal(cli(['members', 'add', '--help'], env).code, 0);
    const bad = cli(['members', 'add'], env);
    assert.equal(bad.code, 2);
    assert.match(bad.err, /--email is required/);
    assert.equal(cli(['nope'], env).code, 2);
    assert.equal(cli(['keys', 'create-management', '--name', 'x', '--bogus'], env).code, 2);
    assert.equal(cli([], env).code, 2);
  });

  it('adds a member, creates a management key for it, and rotates it while the server runs', async () => {
    const added = cli(['members', 'add', '--email', 'ops@example.com', '--name', 'Op Erator'], env);
    assert.equal(added.code, 0, added.err);
    const userId = added.out.trim();
    assert.match(userId, /^user_/);
    const created = cli(['keys', 'create-management', '--name', 'ops', '--member', 'ops@example.com'], env);
    assert.equal(created.code, 0, created.err);
    const hash = /hash:\s+(\S+)/.exec(created.out)?.[1] ?? '';
    const token = /token:\s+(\S+)/.exec(created.out)?.[1] ?? '';
    assert.match(token, /^sk-sy-v1-[0-9a-f]{64}$/);
    const me = await call<{ data: { is_management_key: boolean; creator_user_id: string } }>(server, 'GET', '/key', {
      token,
    });
    assert.equal(me.body.data.is_management_key, true);
    assert.equal(me.body.data.creator_user_id, userId);
    assert.ok(cli(['keys', 'list', '--management'], env).out.includes(hash));

    const rotated = cli(['keys', 'rotate-management', hash], env);
    assert.equal(rotated.code, 0, rotated.err);
    const newToken = /token:\s+(\S+)/.exec(rotated.out)?.[1] ?? '';
    // The server learns of the CLI's write on the very next request (SQLite data_version).
    assert.equal((await call(server, 'GET', '/keys', { token })).status, 401);
    assert.equal((await call(server, 'GET', '/keys', { token: newToken })).status, 200);
    assert.equal(cli(['keys', 'rotate-management', 'unknown-hash'], env).code, 2);
  });

  it('migrate reports an up-to-date database', () => {
    const r = cli(['migrate'], env);
    assert.equal(r.code, 0, r.err);
    assert.match(r.out, /up to date/);
  });
});

/** Resolves once the child's output matches; rejects if the child exits first. */
async function waitForOutput(child: ChildProcess, output: () => string, pattern: RegExp): Promise<void> {
  const exited = once(child, 'exit').then(([code]) => `exit ${String(code)}`);
  while (!pattern.test(output())) {
    const first = await Promise.race([once(child.stdout ?? child, 'data').then(() => 'data'), exited]);
    if (first !== 'data') throw new Error(`server ended (${first}) before printing ${String(pattern)}`);
  }
}

describe('server process', () => {
  it('prints a bootstrap key once on an empty store, then lets an in-flight stream finish on SIGTERM', async () => {
    const file = tempSqlitePath();
    const configPath = join(dirname(file.path), 'slow-demo.json');
    // A demo provider that pauses between streamed pieces, so a stream is really in flight.
    writeFileSync(
      configPath,
      JSON.stringify({
        providers: [{ id: 'demo', kind: 'demo', base_url: 'http://demo.local/?delay_ms=60', zdr: true }],
        models: [
          {
            slug: 'demo/slow',
            context_length: 8000,
            endpoints: [{ provider: 'demo', upstream_model: 'echo', pricing: { prompt: 0, completion: 0 } }],
          },
        ],
      }),
    );
    const start = () =>
      spawn(process.execPath, [MAIN], {
        env: {
          ...process.env,
          PORT: '0',
          SWITCHYARD_DATABASE_URL: `sqlite:${file.path}`,
          SWITCHYARD_MANAGEMENT_KEY: '',
          SWITCHYARD_CONFIG: configPath,
          SWITCHYARD_LOG_LEVEL: 'info',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
    try {
      const first = start();
      let out = '';
      first.stdout.on('data', (d: Buffer) => (out += d.toString()));
      await waitForOutput(first, () => out, /"url":"(http:[^"]+)"/);
      const token = /(sk-sy-v1-[0-9a-f]{64})/.exec(out)?.[1];
      assert.ok(token, 'bootstrap token printed');
      const api = `${/"url":"(http:[^"]+)"/.exec(out)?.[1] ?? ''}/api/v1`;
      const created = await fetch(`${api}/keys`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'k' }),
      });
      const apiKey = ((await created.json()) as { key: string }).key;
      const res = await fetch(`${api}/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          model: 'demo/slow',
          stream: true,
          messages: [{ role: 'user', content: 'a fairly long message to stream back' }],
        }),
      });
      const reader = res.body?.getReader();
      assert.ok(reader);
      let text = new TextDecoder().decode((await reader.read()).value as Uint8Array);
      first.kill('SIGTERM');
      for (;;) {
        const step = await reader.read();
        if (step.done) break;
        text += new TextDecoder().decode(step.value as Uint8Array);
      }
      assert.ok(text.trimEnd().endsWith('data: [DONE]'), 'the in-flight stream completed');
      const [code] = (await once(first, 'exit')) as [number];
      assert.equal(code, 0);

      const second = start();
      let out2 = '';
      second.stdout.on('data', (d: Buffer) => (out2 += d.toString()));
      await waitForOutput(second, () => out2, /"url":"/);
      assert.ok(!/sk-sy-v1-/.test(out2), 'never printed twice');
      second.kill('SIGTERM');
      await once(second, 'exit');
    } finally {
      file.cleanup();
    }
  });

  it('refuses a malformed SWITCHYARD_MANAGEMENT_KEY with exit code 2', () => {
    const r = spawnSync(process.execPath, [MAIN], {
      env: { ...process.env, SWITCHYARD_MANAGEMENT_KEY: 'short', PORT: '0' },
      encoding: 'utf8',
    });
    assert.equal(r.status, 2);
    assert.match(r.stderr, /SWITCHYARD_MANAGEMENT_KEY/);
  });
});
