import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
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

/** The agent's executable, installing it first when it is missing; a reason string when it cannot be had. */
export function ensureAgent(name: AgentName): { bin: string } | { skip: string } {
  const agent = AGENTS[name];
  const bin = join(AGENTS_DIR, 'node_modules', '.bin', agent.bin);
  if (existsSync(bin)) return { bin };
  const res = spawnSync(
    'npm',
    ['install', '--prefix', AGENTS_DIR, '--no-audit', '--no-fund', `${agent.pkg}@${agent.version}`],
    { encoding: 'utf8', timeout: 300_000 },
  );
  if (res.status !== 0 || !existsSync(bin))
    return {
      skip: `${agent.pkg} could not be installed from npm: ${(res.stderr || res.error?.message || '').slice(0, 300)}`,
    };
  return { bin };
}

if (process.argv[1]?.endsWith('install-agents.js')) {
  for (const name of Object.keys(AGENTS) as AgentName[]) {
    const got = ensureAgent(name);
    process.stdout.write(`${name}: ${'bin' in got ? got.bin : got.skip}\n`);
  }
}
