import { join } from 'node:path';
import { generateToken } from '../../src/domain/keys/tokens.js';
import { spawnChild, type BenchChild } from './child.js';
import type { Endpoint } from './load.js';
import { ECHO_USER, requestBody } from './payloads.js';

/** Starts the policy floor (servers/floor.js) with a fresh key, its journal in `dir`. */
export async function startFloor(options: {
  dir: string;
  upstreamOrigin: string;
  cores: string | null;
  script: string;
  /** Extra node flags, e.g. `--cpu-prof`. */
  nodeArgs?: string[];
}): Promise<{ child: BenchChild; apiKey: string }> {
  const apiKey = generateToken();
  const child = await spawnChild({
    name: 'floor',
    args: [...(options.nodeArgs ?? []), options.script, options.upstreamOrigin, join(options.dir, 'floor-journal.tsv')],
    cores: options.cores,
    logFile: join(options.dir, 'floor.log'),
    env: { ...process.env, BENCH_FLOOR_KEY: apiKey, NODE_ENV: 'production' },
  });
  return { child, apiKey };
}

/** Personal data and a secret marker the guardrail redacts, and the placeholders they become. */
const SENSITIVE = ['jane.doe@example.com', 'ACME-123456'];
const PLACEHOLDERS = ['[EMAIL]', '[bench-0]'];

/**
 * Governance is in force on the benchmarked route: a chat call carrying an e-mail address and a
 * custom pattern's match reaches the upstream (which echoes what it received) with both replaced
 * by their placeholders, and the answer is still well-formed.
 */
export async function checkRedaction(name: string, endpoint: Endpoint): Promise<void> {
  const content = `Please write to ${SENSITIVE[0]} about ticket ${SENSITIVE[1]} today.`;
  const res = await fetch(endpoint.url, {
    method: 'POST',
    headers: { ...endpoint.headers, 'content-type': 'application/json' },
    body: requestBody(false, { user: ECHO_USER, messages: [{ role: 'user', content }] }),
  });
  const text = await res.text();
  let echoed = '';
  try {
    const answer = JSON.parse(text) as { choices?: { message?: { content?: unknown } }[] };
    const got = answer.choices?.[0]?.message?.content;
    echoed = typeof got === 'string' ? got : '';
  } catch {
    echoed = '';
  }
  const redacts =
    res.status === 200 && SENSITIVE.every((s) => !echoed.includes(s)) && PLACEHOLDERS.every((p) => echoed.includes(p));
  if (!redacts)
    throw new Error(`${name} redaction check failed: ${res.status}, upstream received ${echoed.slice(0, 300)}`);
}
