import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { runCommand } from '../../src/cli/commands.js';
import { loadServerConfig } from '../../src/config/env.js';
import { tempSqlitePath } from '../harness/env.js';
import { call, startTestServer, type TestServer } from '../support/server.js';

/** The CLI in this process (test/cli/cli.test.ts runs the real binary): exit code and output. */
async function cli(args: string[], env: Record<string, string>) {
  let out = '';
  let err = '';
  const io = { out: (s: string) => void (out += s + '\n'), err: (s: string) => void (err += s + '\n') };
  let code: number | null;
  try {
    code = await runCommand(args, { env: { ...process.env, ...env }, io, loadConfig: loadServerConfig });
  } catch (error) {
    err += error instanceof Error ? error.message : String(error);
    code = 2;
  }
  return { code, out, err };
}

describe('switchyard audit', () => {
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

  it('records CLI writes with actor "cli" and prints the log, newest first, filtered and as JSON', async () => {
    assert.equal((await cli(['members', 'add', '--email', 'aud@example.com'], env)).code, 0);
    const created = await cli(['keys', 'create-management', '--name', 'ops', '--member', 'aud@example.com'], env);
    assert.equal(created.code, 0, created.err);
    const hash = /hash:\s+(\S+)/.exec(created.out)?.[1] ?? '';
    const token = /token:\s+(\S+)/.exec(created.out)?.[1] ?? '';
    assert.equal((await cli(['keys', 'rotate-management', hash], env)).code, 0);
    await call(server, 'POST', '/keys', { token: server.managementToken, body: { name: 'over-http' } });

    const lines = await cli(['audit', '--json'], env);
    assert.equal(lines.code, 0, lines.err);
    const records = lines.out
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { action: string; actor: { type: string }; target: { id: string } });
    assert.deepEqual(
      records.slice(0, 4).map((r) => [r.action, r.actor.type]),
      [
        ['key.create', 'key'],
        ['key.rotate', 'cli'],
        ['key.create', 'cli'],
        ['member.create', 'cli'],
      ],
    );
    assert.ok(!lines.out.includes(token) && !lines.out.includes('sk-sy-v1-'));

    const filtered = await cli(['audit', '--actor', 'cli', '--target-id', hash], env);
    assert.equal(filtered.code, 0, filtered.err);
    assert.equal(filtered.out.trim().split('\n').length, 2);
    assert.match(filtered.out, /cli {2}key\.rotate {2}key:/);

    const paged = await cli(['audit', '--limit', '1'], env);
    const cursor = /more: --cursor (\S+)/.exec(paged.out)?.[1];
    assert.ok(cursor !== undefined, paged.out);
    const next = await cli(['audit', '--limit', '1', '--cursor', cursor, '--json'], env);
    assert.equal((JSON.parse(next.out.split('\n')[0] ?? '') as { action: string }).action, 'key.rotate');

    assert.equal((await cli(['audit', '--limit', 'x'], env)).code, 2);
    assert.equal((await cli(['audit', '--since', 'yesterday'], env)).code, 2);
    assert.ok((await cli(['--help'], env)).out.includes('switchyard audit'));
  });
});
