/**
 * The doc-test runner: every ```sh and ```ts block of docs/guides/*.md runs, in order, against a
 * freshly started server per guide, so the guides cannot drift from the code.
 *
 * Per guide: a real server on a loopback port over a fresh SQLite file (the guide's
 * `server-env` directives added), then each block in a shell whose variables carry over to the
 * next block, like a reader's terminal. The runner exports what the guide's setup section tells
 * the reader to set: SY (the server's base URL), MGMT (its management key), and
 * SWITCHYARD_DATABASE_URL (so the CLI works on the same store); PORT_A and PORT_B (free ports, for
 * guides that start servers of their own); DATABASE_URL (a fresh PostgreSQL database) for guides
 * marked `needs postgres`. Shell blocks run with `bash -euo pipefail` in the
 * repository root; TypeScript blocks are transpiled and run with node from `.tmp/doc-test/`
 * (inside the checkout, so their imports resolve from node_modules). Each must exit 0, and its
 * stdout match the block's `expect` directive when it has one (test/docs/blocks.ts).
 *
 * Each guide has its own test file, test/docs/guides/<guide>.test.ts, so that guides run in
 * parallel and each stays within the runner's per-file time limit (blocks.test.ts checks that
 * every guide has one). One guide: node dist/test/harness/run-tests.js docs/guides/03
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join, resolve } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { freshPgDatabase, getTestPgUrl } from '../harness/env.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { parseGuide, type GuideBlock } from './blocks.js';

const ROOT = resolve(fileURLToPath(new URL('../../..', import.meta.url)));
const GUIDES = join(ROOT, 'docs', 'guides');
const BLOCK_TIMEOUT_MS = 180_000;

interface Run {
  code: number | null;
  out: string;
  err: string;
}

/** Runs a script in its own process group (killed afterwards: a block may leave servers behind). */
function runScript(script: string, groups: number[]): Promise<Run> {
  return new Promise((done) => {
    const env: NodeJS.ProcessEnv = {};
    for (const [k, v] of Object.entries(process.env)) if (!k.startsWith('SWITCHYARD_')) env[k] = v;
    const child = spawn('bash', ['-c', script], { cwd: ROOT, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    if (child.pid !== undefined) groups.push(child.pid);
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), BLOCK_TIMEOUT_MS);
    child.on('close', (code) => {
      clearTimeout(timer);
      done({ code, out, err });
    });
  });
}

function shellQuote(value: string): string {
  return `'${value.replace(/'/g, `'\\''`)}'`;
}

/** The script for one block: load the state, run, save the exported variables for the next block. */
function scriptFor(block: GuideBlock, state: string, workDir: string, index: number): string {
  const load = `set -a; source ${shellQuote(state)}; set +a\nset -euo pipefail\n`;
  if (block.language === 'sh') return `${load}${block.code}\nexport -p > ${shellQuote(state)}\n`;
  const file = join(workDir, `block-${index}.mjs`);
  const js = ts.transpileModule(block.code, {
    compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
  }).outputText;
  writeFileSync(file, js);
  return `${load}node ${shellQuote(file)}\n`;
}

/** A port nothing listens on right now (for guides that start servers of their own). */
function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const probe = createServer();
    probe.once('error', fail);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      probe.close(() => done(port));
    });
  });
}

export const ROOT_DIR = ROOT;

/** Runs one guide of docs/guides as a test suite. */
export function docTestGuide(file: string): void {
  const guide = parseGuide(readFileSync(join(GUIDES, file), 'utf8'));
  const skipAll = !guide.blocks.some((b) => b.skip === null)
    ? 'every example needs what CI provides elsewhere (see the skip reasons)'
    : guide.needsPostgres && getTestPgUrl() === null
      ? 'needs PostgreSQL'
      : false;

  describe(`docs/guides/${file}`, { skip: skipAll }, () => {
    const workDir = join(ROOT, '.tmp', 'doc-test', file.replace(/\.md$/, ''));
    const state = join(workDir, 'state.sh');
    const groups: number[] = [];
    let server: TestServer | null = null;
    let dropPg: (() => Promise<void>) | null = null;
    let broken: string | null = null;

    before(async () => {
      rmSync(workDir, { recursive: true, force: true });
      mkdirSync(workDir, { recursive: true });
      const serverEnv: Record<string, string> = {};
      for (const [k, v] of Object.entries(guide.serverEnv))
        serverEnv[k] = k === 'SWITCHYARD_CONFIG' ? resolve(ROOT, v) : v;
      if (guide.serverConfig !== null) {
        serverEnv.SWITCHYARD_CONFIG = join(workDir, 'catalog.yaml');
        copyFileSync(resolve(ROOT, guide.serverConfig), serverEnv.SWITCHYARD_CONFIG);
      }
      server = await startTestServer({ dialect: 'sqlite', env: serverEnv });
      const vars: Record<string, string> = {
        ...(serverEnv.SWITCHYARD_CONFIG === undefined ? {} : { SWITCHYARD_CONFIG: serverEnv.SWITCHYARD_CONFIG }),
        PORT_A: String(await freePort()),
        PORT_B: String(await freePort()),
        SY: server.url,
        MGMT: server.managementToken,
        SWITCHYARD_DATABASE_URL: server.db.url,
        DOC_TEST_DIR: workDir,
      };
      if (guide.needsPostgres) {
        const db = await freshPgDatabase('docs');
        vars.DATABASE_URL = db.url;
        dropPg = () => db.drop();
      }
      writeFileSync(
        state,
        Object.entries(vars)
          .map(([k, v]) => `export ${k}=${shellQuote(v)}\n`)
          .join(''),
      );
    });

    after(async () => {
      for (const pgid of groups) {
        try {
          process.kill(-pgid, 'SIGTERM');
        } catch {
          // The block's process group has already ended.
        }
      }
      await server?.close();
      await dropPg?.();
    });

    guide.blocks.forEach((block, index) => {
      const name = `${block.language} block at line ${block.line}`;
      it(name, { skip: block.skip ?? false }, async () => {
        if (broken !== null) assert.fail(`not run: ${broken} failed`);
        const run = await runScript(scriptFor(block, state, workDir, index), groups);
        if (run.code !== 0) broken = name;
        assert.equal(
          run.code,
          0,
          `${file}:${block.line} exited ${String(run.code)}\n--- stdout\n${run.out}\n--- stderr\n${run.err}`,
        );
        if (block.expect !== null) {
          if (!block.expect.test(run.out)) broken = name;
          assert.match(run.out, block.expect, `${file}:${block.line}: output does not match ${String(block.expect)}`);
        }
      });
    });
  });
}
