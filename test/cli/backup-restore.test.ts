import assert from 'node:assert/strict';
import {
  existsSync,
  openSync,
  readdirSync,
  readFileSync,
  writeFileSync,
  writeSync,
  closeSync,
  copyFileSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import BetterSqlite3 from 'better-sqlite3';
import { Migrator } from 'kysely';
import { migrationProvider } from '../../src/store/migrations/index.js';
import { openSqlite } from '../../src/store/sqlite/connect.js';
import { tempSqlitePath } from '../harness/env.js';
import { runCli } from '../support/cli.js';
import { call, startTestServer, type TestServer } from '../support/server.js';

type Created = { data: { hash: string }; key: string };
type Answer = { model?: string; error?: { message: string } };

/** Polls `check` until it holds (generous: the machine may be loaded). */
async function until(what: string, check: () => boolean | Promise<boolean>, ms = 15_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) assert.fail(`timed out waiting for ${what}`);
    await new Promise((done) => setTimeout(done, 50));
  }
}

function integrity(path: string): string {
  const db = new BetterSqlite3(path, { readonly: true, fileMustExist: true });
  try {
    return (db.pragma('integrity_check') as { integrity_check: string }[]).map((r) => r.integrity_check).join('; ');
  } finally {
    db.close();
  }
}

describe('switchyard backup and restore (SQLite, server running)', () => {
  const file = tempSqlitePath();
  const dir = dirname(file.path);
  const env = { SWITCHYARD_DATABASE_URL: `sqlite:${file.path}`, SWITCHYARD_MANAGEMENT_KEY: '' };
  let server: TestServer;
  let leaseResets = 0;
  const mgmt = () => ({ token: server.managementToken });
  const chat = (token: string, model: string) =>
    call<Answer>(server, 'POST', '/chat/completions', {
      token,
      body: { model, messages: [{ role: 'user', content: 'hi' }] },
    });
  const authenticates = async (token: string) => (await call(server, 'GET', '/key', { token })).status === 200;

  before(async () => {
    server = await startTestServer({
      dialect: 'sqlite',
      db: { url: env.SWITCHYARD_DATABASE_URL, dispose: () => Promise.resolve(file.cleanup()) },
    });
    // Counts the meter's reaction to a restore (the one reload the change-feed topics do not cover).
    const meter = server.running.services.meter;
    const forget = meter.forgetLeases.bind(meter);
    meter.forgetLeases = () => {
      leaseResets += 1;
      forget();
    };
  });
  after(() => server.close());

  it('restores keys, guardrails and presets into the running server, which serves them without restart', async () => {
    const keep = await call<Created>(server, 'POST', '/keys', { ...mgmt(), body: { name: 'kept', limit: 5 } });
    const doomed = await call<Created>(server, 'POST', '/keys', { ...mgmt(), body: { name: 'doomed' } });
    const guard = await call<{ data: { id: string } }>(server, 'POST', '/guardrails', {
      ...mgmt(),
      body: { name: 'echo only', allowed_models: ['demo/echo'] },
    });
    assert.equal(guard.status, 201, JSON.stringify(guard.body));
    await call(server, 'POST', `/guardrails/${guard.body.data.id}/assignments/keys`, {
      ...mgmt(),
      body: { key_hashes: [keep.body.data.hash] },
    });
    const preset = await call(server, 'POST', '/presets/writer/chat/completions', {
      ...mgmt(),
      body: { model: 'demo/echo', messages: [{ role: 'user', content: 'x' }] },
    });
    assert.equal(preset.status, 200, JSON.stringify(preset.body));
    // A call with a limited key: the meter now holds a budget lease granted from this database.
    assert.equal((await chat(keep.body.key, 'demo/echo')).status, 200);
    assert.equal((await chat(keep.body.key, 'demo/fast')).status, 403);

    const backup = join(dir, 'snapshot.db');
    const taken = await runCli(['backup', backup], env);
    assert.equal(taken.code, 0, taken.err);
    assert.match(taken.out, /backup written/);
    assert.equal(integrity(backup), 'ok');
    assert.ok(!existsSync(`${backup}-wal`), 'the backup is one file');
    assert.equal(readFileSync(backup)[18], 1, 'the backup is in rollback-journal mode, not WAL');
    assert.deepEqual(
      readdirSync(dir).filter((f) => f.includes('partial')),
      [],
      'no temporary file is left behind',
    );

    // An ordinary write of another process is not a restore: leases are kept.
    assert.equal((await runCli(['members', 'add', '--email', 'later@example.com'], env)).code, 0);
    await call(server, 'DELETE', `/keys/${doomed.body.data.hash}`, mgmt());
    const added = await call<Created>(server, 'POST', '/keys', { ...mgmt(), body: { name: 'added later' } });
    await call(server, 'PATCH', `/guardrails/${guard.body.data.id}`, {
      ...mgmt(),
      body: { allowed_models: ['demo/echo', 'demo/fast'] },
    });
    await call(server, 'POST', '/presets/writer/chat/completions', {
      ...mgmt(),
      body: { model: 'demo/fast', messages: [{ role: 'user', content: 'x' }] },
    });
    assert.equal(await authenticates(doomed.body.key), false);
    assert.equal(await authenticates(added.body.key), true);
    assert.equal((await chat(keep.body.key, 'demo/fast')).status, 200);
    assert.equal((await chat(added.body.key, '@preset/writer')).body.model, 'demo/fast');
    assert.equal(leaseResets, 0);

    const restored = await runCli(['restore', backup, '--yes'], env);
    assert.equal(restored.code, 0, restored.err);
    assert.match(restored.out, /restored/);

    // No restart: the same server now serves the backup's state.
    assert.equal(await authenticates(doomed.body.key), true, 'the deleted key is back');
    assert.equal(await authenticates(added.body.key), false, 'the key created after the backup is gone');
    await until(
      'the guardrail policy to be re-read',
      async () => (await chat(keep.body.key, 'demo/fast')).status === 403,
    );
    assert.equal((await chat(doomed.body.key, '@preset/writer')).body.model, 'demo/echo', 'preset version 1 again');
    await until('the meter to drop its budget leases', () => leaseResets === 1);
    assert.equal(
      (await chat(keep.body.key, 'demo/echo')).status,
      200,
      'a new lease is granted from the restored counters',
    );

    const audit = await runCli(['audit', '--json', '--limit', '5'], env);
    const actions = audit.out
      .trim()
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => (JSON.parse(l) as { action: string }).action);
    assert.equal(actions[0], 'database.restore', audit.out);
    const members = await call(server, 'GET', '/organization/members', mgmt());
    assert.equal(members.status, 200);
    assert.ok(!JSON.stringify(members.body).includes('later@example.com'), 'the member added after the backup is gone');
  });

  it('takes a consistent backup while calls are being made', async () => {
    const key = await call<Created>(server, 'POST', '/keys', { ...mgmt(), body: { name: 'busy' } });
    let stop = false;
    let served = 0;
    const load = Array.from({ length: 4 }, async () => {
      while (!stop) if ((await chat(key.body.key, 'demo/echo')).status === 200) served += 1;
    });
    await until('calls to be served', () => served >= 20);
    // Some generations are in the database (the timed flush may not have run yet); more keep coming.
    await server.running.services.meter.flush();
    const backup = join(dir, 'busy.db');
    const taken = await runCli(['backup', backup], env);
    stop = true;
    await Promise.all(load);
    assert.equal(taken.code, 0, taken.err);
    assert.equal(integrity(backup), 'ok');
    const db = new BetterSqlite3(backup, { readonly: true });
    try {
      const rows = db.prepare('SELECT count(*) AS n FROM generations WHERE key_hash = ?').get(key.body.data.hash) as {
        n: number;
      };
      assert.ok(rows.n > 0 && rows.n <= served, `${rows.n} generations of ${served} calls`);
    } finally {
      db.close();
    }

    const again = await runCli(['backup', backup], env);
    assert.equal(again.code, 1);
    assert.match(again.err, /already exists; pass --force/);
    assert.equal((await runCli(['backup', backup, '--force'], env)).code, 0);
  });

  it('refuses a corrupt file, a non-SQLite file, a newer backup, a PostgreSQL URL and a missing --yes, changing nothing', async () => {
    const probe = await call<Created>(server, 'POST', '/keys', { ...mgmt(), body: { name: 'probe' } });
    const good = join(dir, 'good.db');
    assert.equal((await runCli(['backup', good], env)).code, 0);
    const resetsBefore = leaseResets;

    const text = join(dir, 'notes.txt');
    writeFileSync(text, 'this is not a database\n'.repeat(100));
    const notSqlite = await runCli(['restore', text, '--yes'], env);
    assert.equal(notSqlite.code, 1);
    assert.match(notSqlite.err, /is not a SQLite database/);

    const corrupt = join(dir, 'corrupt.db');
    copyFileSync(good, corrupt);
    const fd = openSync(corrupt, 'r+');
    // Page 2 onwards overwritten: the header still says SQLite, the b-trees are garbage.
    writeSync(fd, Buffer.alloc(8192, 0x5a), 0, 8192, 4096);
    closeSync(fd);
    const broken = await runCli(['restore', corrupt, '--yes'], env);
    assert.equal(broken.code, 1);
    assert.match(broken.err, /corrupt|integrity_check/);

    const newer = join(dir, 'newer.db');
    copyFileSync(good, newer);
    const db = new BetterSqlite3(newer);
    db.prepare("INSERT INTO kysely_migration (name, timestamp) VALUES ('999-from-the-future', 'x')").run();
    db.close();
    const future = await runCli(['restore', newer, '--yes'], env);
    assert.equal(future.code, 1);
    assert.match(future.err, /newer Switchyard .*999-from-the-future/);

    const unconfirmed = await runCli(['restore', good], env);
    assert.equal(unconfirmed.code, 2);
    assert.match(unconfirmed.err, /--yes/);
    const declined = await runCli(['restore', good], env, { confirm: () => Promise.resolve(false) });
    assert.equal(declined.code, 1);
    assert.match(declined.err, /cancelled; nothing changed/);

    const pg = { ...env, SWITCHYARD_DATABASE_URL: 'postgres://switchyard@127.0.0.1:1/switchyard' };
    for (const command of [
      ['restore', good, '--yes'],
      ['backup', join(dir, 'pg.db')],
    ]) {
      const refused = await runCli(command, pg);
      assert.equal(refused.code, 2);
      assert.match(refused.err, /SQLite only.*pg_dump.*docs\/deploy\.md/);
    }
    assert.ok(!existsSync(join(dir, 'pg.db')));

    // Nothing changed: a key created after the good backup still works, and no restore was seen.
    const created = await call<Created>(server, 'POST', '/keys', { ...mgmt(), body: { name: 'after' } });
    assert.equal(await authenticates(probe.body.key), true);
    assert.equal(await authenticates(created.body.key), true);
    await new Promise((done) => setTimeout(done, 700));
    assert.equal(leaseResets, resetsBefore);
    assert.deepEqual(
      readdirSync(dir).filter((f) => f.includes('.restore-')),
      [],
      'no staging copy is left behind',
    );
  });

  it('brings a backup of an older version up to date before copying it in', async () => {
    const key = await call<Created>(server, 'POST', '/keys', { ...mgmt(), body: { name: 'old times' } });
    const old = join(dir, 'old.db');
    assert.equal((await runCli(['backup', old], env)).code, 0);
    // Undo the last migration, as a backup taken before it shipped would be.
    const db = openSqlite(`sqlite:${old}`, { checkpointWorker: false }).db;
    const undone = await new Migrator({ db, provider: migrationProvider }).migrateDown();
    await db.destroy();
    const last = undone.results?.[0]?.migrationName;
    assert.ok(undone.error === undefined && last !== undefined, String(undone.error));
    const restored = await runCli(['restore', old, '--yes'], env);
    assert.equal(restored.code, 0, restored.err);
    assert.match(restored.out, new RegExp(`applied migrations: ${last}`));
    assert.equal(
      (await chat(key.body.key, 'demo/echo')).status,
      200,
      'the running server works on the migrated content',
    );
    assert.equal(integrity(file.path), 'ok');
  });

  it('describes both commands in the help', async () => {
    const all = await runCli(['--help'], env);
    assert.match(all.out, /switchyard backup FILE/);
    assert.match(all.out, /switchyard restore FILE/);
    const backup = await runCli(['backup', '--help'], env);
    assert.equal(backup.code, 0);
    assert.match(backup.out, /online backup[\s\S]*--force[\s\S]*PostgreSQL/);
    const restore = await runCli(['restore', '--help'], env);
    assert.equal(restore.code, 0);
    assert.match(restore.out, /integrity_check[\s\S]*--yes/);
  });
});
