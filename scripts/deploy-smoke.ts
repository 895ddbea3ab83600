// Smoke test of the documented deployment (docs/deploy.md): three replicas behind nginx (Debian's
// package, running deploy/nginx/switchyard.conf with its ports moved to free loopback ports) on
// one PostgreSQL. Run by deploy/smoke.sh (and by CI through scripts/test-all.sh). Loopback only.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { get } from 'node:http';
import { generateToken } from '../src/domain/keys/tokens.js';
import { createDatabase, freePort, startPostgres, type PostgresServer } from '../test/harness/postgres.js';
import { withTimeout } from '../test/harness/env.js';
import { request, startReplica, waitFor, type Replica } from '../test/scale/cluster.js';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const CLI = join(repo, 'dist', 'src', 'cli', 'main.js');
const say = (line: string) => process.stdout.write(`[smoke] ${line}\n`);

function check(condition: boolean, what: string): void {
  if (!condition) throw new Error(`smoke failed: ${what}`);
  say(`ok: ${what}`);
}

/** deploy/nginx/switchyard.conf with its listen and upstream ports moved to the ones given. */
function renderSite(listen: number, ports: readonly number[]): string {
  let i = 0;
  return readFileSync(join(repo, 'deploy', 'nginx', 'switchyard.conf'), 'utf8')
    .replace(/listen 80;/, `listen 127.0.0.1:${listen};`)
    .replace(/server 127\.0\.0\.1:808[1-3]/g, () => `server 127.0.0.1:${ports[i++] ?? 0}`);
}

async function startNginx(dir: string, listen: number, ports: readonly number[]): Promise<ChildProcess> {
  const nginx = ['/usr/sbin/nginx', 'nginx'].find((bin) => spawnSync(bin, ['-v']).status === 0);
  if (nginx === undefined)
    throw new Error("nginx not found: install Debian's nginx package (scripts/test-all.sh does)");
  for (const sub of ['body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']) mkdirSync(join(dir, sub), { recursive: true });
  writeFileSync(join(dir, 'switchyard.conf'), renderSite(listen, ports));
  const root = typeof process.getuid === 'function' && process.getuid() === 0;
  const temp = ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map(
    (t) => `  ${t}_temp_path ${join(dir, t === 'client_body' ? 'body' : t)};`,
  );
  writeFileSync(
    join(dir, 'nginx.conf'),
    [
      root ? 'user root;' : '',
      'daemon off;',
      'worker_processes 1;',
      `pid ${join(dir, 'nginx.pid')};`,
      `error_log ${join(dir, 'error.log')} warn;`,
      'events { worker_connections 256; }',
      'http {',
      '  access_log off;',
      ...temp,
      `  include ${join(dir, 'switchyard.conf')};`,
      '}',
    ].join('\n'),
  );
  const test = spawnSync(nginx, ['-t', '-p', dir, '-c', join(dir, 'nginx.conf')], { encoding: 'utf8' });
  if (test.status !== 0) throw new Error(`nginx -t failed:\n${test.stderr}`);
  const child = spawn(nginx, ['-p', dir, '-c', join(dir, 'nginx.conf')], { stdio: 'ignore' });
  await waitFor(
    async () => (await fetch(`http://127.0.0.1:${listen}/health`).catch(() => null))?.status === 200,
    10_000,
    'nginx up',
  );
  return child;
}

async function calls(api: { api: string }, token: string, n: number, stream = false): Promise<number[]> {
  const statuses: number[] = [];
  for (let i = 0; i < n; i++) {
    const body = { model: 'demo/echo', max_tokens: 16, stream, messages: [{ role: 'user', content: `smoke ${i}` }] };
    statuses.push((await request(api, 'POST', '/chat/completions', token, body)).status);
  }
  return statuses;
}

async function servedBy(replica: Replica, token: string): Promise<number> {
  const text = (await request<string>(replica, 'GET', '/metrics', token)).body;
  return [...text.matchAll(/^switchyard_model_calls_total\{[^}]*\} (\d+)/gm)].reduce((n, m) => n + Number(m[1]), 0);
}

/** GET /key with `token` from the loopback address `from` (a client of its own to nginx). */
function keyStatusFrom(lb: { api: string }, from: string, token: string): Promise<number> {
  const url = new URL(`${lb.api}/key`);
  return new Promise((resolve, reject) => {
    const options = {
      host: url.hostname,
      port: url.port,
      path: url.pathname,
      localAddress: from,
      agent: false,
      headers: { authorization: `Bearer ${token}` },
    };
    get(options, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    }).on('error', reject);
  });
}

/**
 * Two clients on different loopback addresses: the first sends bogus tokens until every replica
 * throttles it (a whole batch answered 429); the second's bogus token is still a plain 401, and
 * the first's valid key works. Shows the replicas count the client nginx names, not nginx.
 */
async function clientsApart(lb: { api: string }, token: string): Promise<void> {
  const [noisy, quiet] = ['127.0.0.2', '127.0.0.3'];
  let throttled = false;
  for (let batch = 0; batch < 10 && !throttled; batch += 1) {
    const statuses = await Promise.all(Array.from({ length: 15 }, () => keyStatusFrom(lb, noisy, generateToken())));
    throttled = statuses.every((s) => s === 429);
  }
  check(throttled, 'a client sending bogus tokens is throttled (429) by every replica');
  const others = await Promise.all(Array.from({ length: 6 }, () => keyStatusFrom(lb, quiet, generateToken())));
  check(
    others.every((s) => s === 401),
    `another client behind the same nginx is not throttled (${others.join(',')})`,
  );
  check((await keyStatusFrom(lb, noisy, token)) === 200, "the throttled client's valid key still works");
}

async function main(): Promise<void> {
  const started = Date.now();
  const dir = mkdtempSync(join(tmpdir(), 'switchyard-smoke-'));
  const mgmt = generateToken();
  let pg: PostgresServer | null = null;
  let nginx: ChildProcess | null = null;
  const replicas: Replica[] = [];
  try {
    pg = await startPostgres();
    const databaseUrl = await createDatabase(pg.url, 'smoke');
    const migrate = spawnSync(process.execPath, [CLI, 'migrate'], {
      env: { PATH: process.env.PATH ?? '', SWITCHYARD_DATABASE_URL: databaseUrl },
      encoding: 'utf8',
    });
    check(migrate.status === 0, `switchyard migrate (${migrate.stdout.trim() || migrate.stderr.trim()})`);
    const ports = await Promise.all([freePort(), freePort(), freePort()]);
    // As deploy/systemd/switchyard@.service: nginx connects from 127.0.0.1 and names the client.
    const env = {
      SWITCHYARD_DATABASE_URL: databaseUrl,
      SWITCHYARD_MANAGEMENT_KEY: mgmt,
      SWITCHYARD_LOG_LEVEL: 'warn',
      SWITCHYARD_TRUST_PROXY: '127.0.0.1',
    };
    replicas.push(
      ...(await Promise.all(ports.map((port, i) => startReplica(`r${i + 1}`, { ...env, PORT: String(port) })))),
    );
    const listen = await freePort();
    nginx = await startNginx(dir, listen, ports);
    const lb = { api: `http://127.0.0.1:${listen}/api/v1` };
    say(`3 replicas on ${ports.join(', ')} behind nginx on ${listen}, one PostgreSQL`);

    const created = await request<{ key: string; data: { hash: string } }>(lb, 'POST', '/keys', mgmt, {
      name: 'smoke',
      limit: 10,
    });
    check(created.status === 201, 'a key created through nginx');
    const token = created.body.key;
    check(
      (await calls(lb, token, 9)).every((s) => s === 200),
      '9 model calls through nginx',
    );
    const served = await Promise.all(replicas.map((r) => servedBy(r, mgmt)));
    check(
      served.every((n) => n > 0),
      `every replica served calls (${served.join(', ')})`,
    );

    const sse = await fetch(`${lb.api}/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        model: 'demo/echo',
        stream: true,
        messages: [{ role: 'user', content: 'stream through nginx' }],
      }),
    });
    const text = await sse.text();
    check(
      sse.status === 200 && /^data: /m.test(text) && text.includes('[DONE]'),
      'a streamed call arrives as SSE through nginx',
    );

    const rotated = await request<{ key: string }>(lb, 'POST', `/keys/${created.body.data.hash}/rotate`, mgmt);
    check(rotated.status === 200, 'the key rotated through nginx');
    check(
      (await calls(lb, token, 6)).every((s) => s === 401),
      'the old token is refused on every replica at once',
    );
    check(
      (await calls(lb, rotated.body.key, 6)).every((s) => s === 200),
      'the new token works on every replica',
    );

    await clientsApart(lb, rotated.body.key);

    // Rolling restart as docs/deploy.md describes it: mark the replica `down`, reload nginx, then
    // stop it (SIGTERM) while calls keep coming. (Stopping it without the reload can fail one call
    // that races the shutdown with a 502: nginx never resends a POST that reached a replica.)
    writeFileSync(
      join(dir, 'switchyard.conf'),
      renderSite(listen, ports).replace(`server 127.0.0.1:${ports[1]} `, `server 127.0.0.1:${ports[1]} down `),
    );
    nginx.kill('SIGHUP');
    await new Promise((done) => setTimeout(done, 500));
    const during = calls(lb, rotated.body.key, 30);
    await replicas[1]?.stop();
    const statuses = await during;
    check(
      statuses.every((s) => s === 200),
      `no call fails while a drained replica stops (${[...new Set(statuses)].join(',')})`,
    );
    say(`passed in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  } finally {
    if (nginx !== null && nginx.exitCode === null) {
      const exited = once(nginx, 'exit');
      nginx.kill('SIGQUIT');
      await withTimeout(exited, 5000, 'nginx stop').catch(() => nginx?.kill('SIGKILL'));
    }
    await Promise.all(replicas.map((r) => r.stop()));
    await pg?.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`[smoke] ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);
