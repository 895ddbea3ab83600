import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, rmdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';

/**
 * The real agent CLIs, installed from the npm registry into `.tools/agents` (git-ignored) the
 * first time a test needs them, at pinned versions so a release cannot change a CI run.
 * `node dist/test/agents/install-agents.js` installs them ahead of the tests.
 */
export const AGENTS = {
  codex: { pkg: '@openai/codex', version: '0.171.0', bin: 'codex' },
  claude: { pkg: '@anthropic-ai/claude-code', version: '2.1.332', bin: 'claude' },
} as const;

export type AgentName = keyof typeof AGENTS;

/** `.tools/agents` at the repository root (tests run from it; dist/ mirrors the tree). */
export const AGENTS_DIR = resolve(process.cwd(), '.tools', 'agents');

/** Held while npm writes into AGENTS_DIR: two npm processes in one prefix corrupt each other's tarballs. */
const LOCK = join(AGENTS_DIR, '.installing');
/** A lock older than this belongs to an install that died; it is taken over. */
const STALE_LOCK_MS = 10 * 60_000;

const binOf = (name: AgentName): string => join(AGENTS_DIR, 'node_modules', '.bin', AGENTS[name].bin);

function sleepSync(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/** Runs `fn` holding the directory lock (mkdir is atomic across processes), waiting for another holder. */
function withInstallLock<T>(fn: () => T): T {
  mkdirSync(AGENTS_DIR, { recursive: true });
  for (;;) {
    try {
      mkdirSync(LOCK);
      break;
    } catch {
      try {
        if (Date.now() - statSync(LOCK).mtimeMs > STALE_LOCK_MS) rmdirSync(LOCK);
      } catch {
        // Released between the two calls: try again.
      }
      sleepSync(500);
    }
  }
  try {
    return fn();
  } finally {
    rmdirSync(LOCK);
  }
}

/**
 * The agent's executable, installing every pinned agent first (one npm run, under a lock, so test
 * files started in parallel never install into the same folder at once); a reason string when it
 * cannot be had. Under CI (`CI` set) a failed install throws instead: CI must run the real agents.
 */
export function ensureAgent(name: AgentName): { bin: string } | { skip: string } {
  const bin = binOf(name);
  if (existsSync(bin)) return { bin };
  const failure = withInstallLock((): string | null => {
    if (existsSync(bin)) return null; // another test file installed it while this one waited
    const specs = Object.values(AGENTS).map((a) => `${a.pkg}@${a.version}`);
    const res = spawnSync('npm', ['install', '--prefix', AGENTS_DIR, '--no-audit', '--no-fund', ...specs], {
      encoding: 'utf8',
      timeout: 300_000,
    });
    if (res.status === 0 && existsSync(bin)) return null;
    return (res.stderr || res.error?.message || `npm exited with ${String(res.status)}`).slice(0, 300);
  });
  if (failure === null) return { bin };
  const reason = `${AGENTS[name].pkg} could not be installed from npm: ${failure}`;
  if (process.env.CI !== undefined && process.env.CI !== '' && process.env.CI !== 'false') throw new Error(reason);
  return { skip: reason };
}

if (process.argv[1]?.endsWith('install-agents.js')) {
  for (const name of Object.keys(AGENTS) as AgentName[]) {
    const got = ensureAgent(name);
    process.stdout.write(`${name}: ${'bin' in got ? got.bin : got.skip}\n`);
  }
}
