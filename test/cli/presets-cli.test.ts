import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { tempSqlitePath } from '../harness/env.js';
import { call, startTestServer, type TestServer } from '../support/server.js';

const CLI = fileURLToPath(new URL('../../src/cli/main.js', import.meta.url));

function cli(args: string[], env: Record<string, string>) {
  const r = spawnSync(process.execPath, [CLI, ...args], { env: { ...process.env, ...env }, encoding: 'utf8' });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

describe('switchyard presets CLI', () => {
  const file = tempSqlitePath();
  const env = { SWITCHYARD_DATABASE_URL: `sqlite:${file.path}`, SWITCHYARD_MANAGEMENT_KEY: '', SWITCHYARD_CONFIG: '' };
  const bodyFile = (name: string, body: unknown) => {
    const path = join(dirname(file.path), name);
    writeFileSync(path, JSON.stringify(body));
    return path;
  };
  let server: TestServer;
  let apiKey = '';

  before(async () => {
    server = await startTestServer({
      dialect: 'sqlite',
      db: { url: env.SWITCHYARD_DATABASE_URL, dispose: () => Promise.resolve(file.cleanup()) },
    });
    const key = await call<{ key: string }>(server, 'POST', '/keys', {
      token: server.managementToken,
      body: { name: 'cli-presets' },
    });
    apiKey = key.body.key;
  });
  after(() => server.close());

  it('create, list and show; the running server uses what the CLI wrote on its very next call', async () => {
    const first = bodyFile('v1.json', {
      model: 'demo/echo',
      temperature: 0.3,
      messages: [{ role: 'system', content: 'Be kind.' }],
    });
    const created = cli(['presets', 'create', 'greeter', '--from-file', first], env);
    assert.equal(created.code, 0, created.err);
    assert.match(created.out, /^greeter {2}v1 {2}[0-9a-f-]{36}$/m);
    const chat = () =>
      call<{ model: string }>(server, 'POST', '/chat/completions', {
        token: apiKey,
        body: { model: '@preset/greeter', messages: [{ role: 'user', content: 'hi' }] },
      });
    const before = await chat();
    assert.equal(before.status, 200, JSON.stringify(before.body));
    assert.equal(before.body.model, 'demo/echo');

    const second = cli(
      ['presets', 'create', 'greeter', '--from-file', bodyFile('v2.json', { model: 'demo/fast' })],
      env,
    );
    assert.equal(second.code, 0, second.err);
    assert.equal(
      (await chat()).body.model,
      'demo/fast',
      'the server cache noticed the CLI write (SQLite data_version)',
    );

    const listed = cli(['presets', 'list'], env);
    assert.equal(listed.code, 0, listed.err);
    assert.match(listed.out, /^greeter {2}v2 {2}active {2}\S+ {2}greeter$/m);
    const shown = cli(['presets', 'show', 'greeter'], env);
    assert.equal(shown.code, 0, shown.err);
    const json = JSON.parse(shown.out) as {
      slug: string;
      designated_version: { version: number; config: Record<string, unknown> };
    };
    assert.deepEqual(
      [json.slug, json.designated_version.version, json.designated_version.config],
      ['greeter', 2, { model: 'demo/fast' }],
    );
  });

  it('fails clearly (exit 2) on bad input', () => {
    assert.match(cli(['--help'], env).out, /presets create SLUG --from-file/);
    const noFile = cli(['presets', 'create', 'x'], env);
    assert.deepEqual([noFile.code, /--from-file is required/.test(noFile.err)], [2, true]);
    const badModel = cli(
      ['presets', 'create', 'x', '--from-file', bodyFile('bad.json', { model: 'nobody/none' })],
      env,
    );
    assert.deepEqual([badModel.code, /model: unknown model nobody\/none/.test(badModel.err)], [2, true]);
    const badJson = join(dirname(file.path), 'broken.json');
    writeFileSync(badJson, '{not json');
    for (const args of [
      ['create', 'x', '--from-file', badJson],
      ['show', 'missing'],
      ['show', 'bad slug'],
      ['list', '--workspace', 'no-such'],
    ]) {
      const r = cli(['presets', ...args], env);
      assert.equal(r.code, 2, `${args.join(' ')}: ${r.err}`);
    }
  });
});
