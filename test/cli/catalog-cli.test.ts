import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { after, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { loadServerConfig } from '../../src/config/env.js';
import { CliError, runCommand } from '../../src/cli/commands.js';
import { tempSqlitePath } from '../harness/env.js';

const escape = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

const CLI = fileURLToPath(new URL('../../src/cli/main.js', import.meta.url));
const MAIN = fileURLToPath(new URL('../../src/main.js', import.meta.url));
const TOKEN = `sk-sy-v1-${'7c'.repeat(32)}`;

function cli(args: string[], env: Record<string, string>) {
  return new Promise<{ code: number | null; out: string; err: string }>((resolve) => {
    const child = spawn(process.execPath, [CLI, ...args], { env: { ...process.env, ...env } });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('exit', (code) => resolve({ code, out, err }));
  });
}

function catalogFile(models: string[]): string {
  return JSON.stringify({
    providers: [{ id: 'demo', kind: 'demo', base_url: 'http://demo.local/?delay_ms=80', zdr: true }],
    models: models.map((slug) => ({
      slug,
      context_length: 8000,
      endpoints: [{ provider: 'demo', upstream_model: 'echo', pricing: { prompt: 0, completion: 0 } }],
    })),
  });
}

const INVALID_YAML =
  'providers:\n  - id: demo\n    kind: demo\nmodels:\n  - slug: demo/x\n    context_length: "many"\n';

async function waitFor(child: ChildProcess, output: () => string, pattern: RegExp): Promise<RegExpExecArray> {
  const exited = once(child, 'exit').then(([code]) => `exit ${String(code)}`);
  for (;;) {
    const match = pattern.exec(output());
    if (match !== null) return match;
    const first = await Promise.race([once(child.stdout ?? child, 'data').then(() => 'data'), exited]);
    if (first !== 'data') throw new Error(`server ended (${first}) before printing ${String(pattern)}`);
  }
}

async function modelIds(api: string): Promise<string[]> {
  const res = await fetch(`${api}/models`, { headers: { authorization: `Bearer ${TOKEN}` } });
  return ((await res.json()) as { data: { id: string }[] }).data.map((m) => m.id);
}

/** The CLI in this process (no spawn): the command table with captured output. */
async function inProcess(args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCommand(args, {
    env: process.env,
    io: { out: (line) => out.push(line), err: (line) => err.push(line) },
    loadConfig: loadServerConfig,
  }).catch((error: unknown) => {
    if (error instanceof CliError) return 2;
    throw error;
  });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

describe('switchyard catalog check', () => {
  const dir = dirname(tempSqlitePath().path);
  it('accepts a valid file and reports each problem of an invalid one as file:line (exit 1)', async () => {
    const good = join(dir, 'good.json');
    writeFileSync(good, catalogFile(['demo/a']));
    const ok = await inProcess(['catalog', 'check', good]);
    assert.equal(ok.code, 0, ok.err);
    assert.match(ok.out, /ok, 1 models, 1 providers/);
    const bad = join(dir, 'bad.yaml');
    writeFileSync(bad, INVALID_YAML);
    const refused = await inProcess(['catalog', 'check', bad]);
    assert.equal(refused.code, 1);
    assert.match(refused.err, new RegExp(`^${escape(bad)}:6: models\\[0\\]\\.context_length: `, 'm'));
    const missing = await inProcess(['catalog', 'check', join(dir, 'absent.yaml')]);
    assert.equal(missing.code, 1);
    assert.match(missing.err, /cannot read the config file \(ENOENT\)/);
    assert.equal((await inProcess(['catalog', 'check'])).code, 2);
    const help = await inProcess(['catalog', '--help']);
    assert.equal(help.code, 0);
    assert.match(help.out, /catalog check FILE/);
    assert.match(help.out, /catalog reload/);
    for (const group of ['keys', 'members', 'presets'])
      assert.equal((await inProcess([group, '--help'])).code, 0, group);
  });
});

describe('catalog reload of a running server process (SIGHUP, switchyard catalog reload)', () => {
  const db = tempSqlitePath();
  const configPath = join(dirname(db.path), 'sighup-catalog.json');
  let server: ChildProcess | null = null;
  after(() => {
    server?.kill('SIGTERM');
    db.cleanup();
  });

  it('SIGHUP serves a new model while a stream started before it finishes; a bad file is refused with file:line', async () => {
    writeFileSync(configPath, catalogFile(['demo/slow']));
    const child = spawn(process.execPath, [MAIN], {
      env: {
        ...process.env,
        PORT: '0',
        SWITCHYARD_DATABASE_URL: `sqlite:${db.path}`,
        SWITCHYARD_MANAGEMENT_KEY: TOKEN,
        SWITCHYARD_CONFIG: configPath,
        SWITCHYARD_LOG_LEVEL: 'info',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    server = child;
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    const url = (await waitFor(child, () => out, /"url":"(http:[^"]+)"/))[1] ?? '';
    const api = `${url}/api/v1`;
    const created = await fetch(`${api}/keys`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'k' }),
    });
    const apiKey = ((await created.json()) as { key: string }).key;
    const chat = (model: string, stream: boolean) =>
      fetch(`${api}/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          model,
          stream,
          messages: [{ role: 'user', content: 'one two three four five six seven eight nine ten' }],
        }),
      });

    const res = await chat('demo/slow', true);
    const reader = res.body?.getReader();
    assert.ok(reader);
    const decoder = new TextDecoder();
    let text = decoder.decode((await reader.read()).value as Uint8Array);
    writeFileSync(configPath, catalogFile(['demo/slow', 'demo/new']));
    child.kill('SIGHUP');
    await waitFor(child, () => out, /"msg":"catalog reloaded"/);
    assert.deepEqual(await modelIds(api), ['demo/slow', 'demo/new']);
    assert.equal((await chat('demo/new', false)).status, 200);
    for (;;) {
      const step = await reader.read();
      if (step.done) break;
      text += decoder.decode(step.value as Uint8Array);
    }
    assert.ok(text.trimEnd().endsWith('data: [DONE]'), 'the in-flight stream completed');
    assert.equal(child.exitCode, null, 'SIGHUP did not stop the server');

    // An invalid file: SIGHUP logs the problems with file:line and keeps the catalog.
    writeFileSync(configPath, INVALID_YAML);
    child.kill('SIGHUP');
    await waitFor(child, () => out, /catalog reload refused/);
    assert.match(out, new RegExp(`${escape(configPath)}:6: models\\[0\\]\\.context_length`));
    assert.deepEqual(await modelIds(api), ['demo/slow', 'demo/new']);

    // The CLI asks the running server; same refusal, then success once the file is fixed.
    const env = { SWITCHYARD_MANAGEMENT_KEY: TOKEN, SWITCHYARD_URL: url };
    const refused = await cli(['catalog', 'reload'], env);
    assert.equal(refused.code, 1);
    assert.match(refused.err, /running catalog is kept/);
    assert.match(refused.err, /:6: models\[0\]\.context_length/);
    writeFileSync(configPath, catalogFile(['demo/other']));
    const reloaded = await cli(['catalog', 'reload', '--url', url], { SWITCHYARD_MANAGEMENT_KEY: TOKEN });
    assert.equal(reloaded.code, 0, reloaded.err);
    assert.match(reloaded.out, /1 models, 1 providers/);
    assert.match(reloaded.out, /added: demo\/other/);
    assert.deepEqual(await modelIds(api), ['demo/other']);
    child.kill('SIGTERM');
    const [code] = (await once(child, 'exit')) as [number];
    assert.equal(code, 0);
    server = null;
  });
});
