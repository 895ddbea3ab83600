import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { spawnChild, type BenchChild } from './child.js';

/**
 * The Portkey gateway from npm, installed by the benchmark into a gitignored directory.
 * 1.15.2 streams only with @hono/node-server held at 1.14.1 (later versions answer every stream
 * with 500 `TypeError: immutable`), hence the `overrides` entry.
 */
export const PORTKEY_VERSION = '1.15.2';
const MANIFEST = {
  name: 'switchyard-bench-portkey',
  private: true,
  description: 'Installed by bench/gateway-bench (not part of Switchyard)',
  dependencies: { '@portkey-ai/gateway': PORTKEY_VERSION },
  overrides: { '@hono/node-server': '1.14.1' },
};

export function ensurePortkey(dir: string, log: (msg: string) => void): string {
  const entry = join(dir, 'node_modules', '@portkey-ai', 'gateway', 'build', 'start-server.js');
  const manifestPath = join(dir, 'package.json');
  const manifest = JSON.stringify(MANIFEST, null, 2) + '\n';
  const current = existsSync(manifestPath) ? readFileSync(manifestPath, 'utf8') : '';
  if (existsSync(entry) && current === manifest) return entry;
  mkdirSync(dir, { recursive: true });
  writeFileSync(manifestPath, manifest);
  log(`installing @portkey-ai/gateway@${PORTKEY_VERSION} into ${dir} (npm registry)`);
  execFileSync('npm', ['install', '--prefix', dir, '--no-audit', '--no-fund', '--ignore-scripts', '--omit=dev'], {
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  if (!existsSync(entry)) throw new Error(`Portkey install did not produce ${entry}`);
  return entry;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const address = srv.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

/** Starts Portkey headless (its documented entry, not npx) and gives it time to warm up. */
export async function startPortkey(options: {
  dir: string;
  logDir: string;
  cores: string | null;
  warmupMs: number;
}): Promise<BenchChild> {
  const entry = ensurePortkey(options.dir, (m) => process.stderr.write(`${m}\n`));
  const port = await freePort();
  const child = await spawnChild({
    name: 'portkey',
    args: [entry, `--port=${port}`, '--headless'],
    cores: options.cores,
    cwd: options.dir,
    port,
    logFile: join(options.logDir, 'portkey.log'),
    env: { ...process.env, NODE_ENV: 'production' },
  });
  await new Promise((r) => setTimeout(r, options.warmupMs));
  return child;
}

/** Headers that route a Portkey request to the fake upstream as an OpenAI-compatible host. */
export function portkeyHeaders(upstreamOrigin: string): Record<string, string> {
  return {
    'x-portkey-provider': 'openai',
    'x-portkey-custom-host': `${upstreamOrigin}/v1`,
    authorization: 'Bearer sk-bench-upstream-key-0000000001',
  };
}
