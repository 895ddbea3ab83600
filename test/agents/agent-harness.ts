import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startGateway, type GatewayHarness } from '../support/gateway.js';
import { call, type TestDialect } from '../support/server.js';

/** An address no agent may reach: what is sent there fails at once (a closed loopback port). */
const NOWHERE = 'http://127.0.0.1:9';

/** The e-mail address the prompts carry: the key's redaction guardrail must keep it from every upstream. */
export const SECRET_EMAIL = 'alice.secret@example.com';

export interface AgentHarness {
  gw: GatewayHarness;
  /** An API key whose guardrail redacts e-mail addresses. */
  key: string;
  /** A scratch directory (the agent's home and working directory). */
  dir: string;
  /** Environment for an agent process: loopback only, no telemetry, no update checks. */
  env(extra: Record<string, string>): NodeJS.ProcessEnv;
  /** Every body the fake upstreams received, as text. */
  upstreamText(): string;
  close(): Promise<void>;
}

export async function startAgentHarness(
  dialect: TestDialect,
  catalog?: (fakeUrl: string) => Record<string, unknown>,
): Promise<AgentHarness> {
  const gw = await startGateway(catalog === undefined ? { dialect } : { dialect, catalog });
  const token = gw.server.managementToken;
  const created = await call<{ key: string; data: { hash: string } }>(gw.server, 'POST', '/keys', {
    token,
    body: { name: 'agent' },
  });
  const guardrail = await call<{ data: { id: string } }>(gw.server, 'POST', '/guardrails', {
    token,
    body: { name: 'redact-email', content_filter_builtins: [{ slug: 'email', action: 'redact' }] },
  });
  await call(gw.server, 'POST', `/guardrails/${guardrail.body.data.id}/assignments/keys`, {
    token,
    body: { key_hashes: [created.body.data.hash] },
  });
  const dir = mkdtempSync(join(tmpdir(), 'switchyard-agent-'));
  return {
    gw,
    key: created.body.key,
    dir,
    env: (extra) => ({
      PATH: process.env.PATH ?? '',
      HOME: dir,
      TMPDIR: dir,
      // Anything not addressed to the gateway on loopback goes to a closed port.
      HTTP_PROXY: NOWHERE,
      HTTPS_PROXY: NOWHERE,
      ALL_PROXY: NOWHERE,
      http_proxy: NOWHERE,
      https_proxy: NOWHERE,
      NO_PROXY: '127.0.0.1,localhost',
      no_proxy: '127.0.0.1,localhost',
      ...extra,
    }),
    upstreamText: () => gw.fake.requests.map((r) => JSON.stringify(r.body)).join('\n'),
    close: async () => {
      await gw.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Runs an agent CLI to its end (killed after two minutes), its output collected. */
export function runAgent(bin: string, args: string[], env: NodeJS.ProcessEnv, cwd: string) {
  return new Promise<{ code: number | null; out: string; err: string }>((resolve) => {
    const child = spawn(bin, args, { env, cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 120_000);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, out, err });
    });
  });
}
