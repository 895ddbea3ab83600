// SIGKILL under load, then restart: how much of what was delivered is charged (docs/metering.md,
// "The ledger journal"). A real server process over a real database; the test asserts on it and
// bench/crash-ledger.ts prints the figures with the journal on and off.
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Kysely } from 'kysely';
import { generateToken } from '../../src/domain/keys/tokens.js';
import { openPostgres } from '../../src/store/postgres/connect.js';
import type { Database } from '../../src/store/schema.js';
import { openSqlite } from '../../src/store/sqlite/connect.js';
import { withTimeout } from '../harness/env.js';
import { listeningUrl, request } from './cluster.js';

const MAIN = fileURLToPath(new URL('../../src/main.js', import.meta.url));

interface Child {
  api: string;
  process: ChildProcess;
  logs: string[];
}

async function startChild(env: Record<string, string>): Promise<Child> {
  const child = spawn(process.execPath, [MAIN], {
    env: { PATH: process.env.PATH ?? '', PORT: '0', HOST: '127.0.0.1', SWITCHYARD_LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const logs: string[] = [];
  const keep = (line: string) => {
    if (!line.includes('"model call"')) logs.push(line);
  };
  const url = listeningUrl(child, keep, (code) => `server exited with ${code}:\n${logs.slice(-20).join('\n')}`);
  const base = await withTimeout(url, 60_000, 'server start');
  return { api: `${base}/api/v1`, process: child, logs };
}

async function kill(child: Child, signal: NodeJS.Signals): Promise<void> {
  if (child.process.exitCode !== null || child.process.signalCode !== null) return;
  const exited = once(child.process, 'exit');
  child.process.kill(signal);
  await withTimeout(exited, 30_000, 'server exit');
}

export interface CrashRound {
  /** Calls answered 200 with their whole body before the kill. */
  delivered: number;
  /** Of those, how many have a generation record after the restart. */
  recorded: number;
  /** The key's lifetime usage after the restart over the cost of the delivered calls. */
  chargedShare: number;
  /** Stored generation rows of the key, and the sum of their cost against the key's counter. */
  storedRows: number;
  storedCostUsd: number;
  counterUsd: number;
  deliveredCostUsd: number;
  /** Records the restart replayed from the journal (from its log line; 0 without one). */
  replayed: number;
}

export interface CrashOptions {
  databaseUrl: string;
  journal: boolean;
  calls: number;
  concurrency: number;
  /** SWITCHYARD_LEDGER_FLUSH_MS of the server (default 250). */
  flushMs?: number;
  /** Progress lines (timings), e.g. console.error. */
  trace?: (line: string) => void;
}

/** The key's stored generation ids, their total cost and its lifetime counter, read from the database. */
async function stored(
  databaseUrl: string,
  keyHash: string,
): Promise<{ ids: Set<string>; cost: number; counter: number }> {
  const db: Kysely<Database> = databaseUrl.startsWith('sqlite:')
    ? openSqlite(databaseUrl, { checkpointWorker: false }).db
    : openPostgres(databaseUrl).db;
  try {
    const rows = await db
      .selectFrom('generations')
      .select(['id', 'cost_usd'])
      .where('key_hash', '=', keyHash)
      .execute();
    const counter = await db
      .selectFrom('spend_counters')
      .select('amount_usd')
      .where('account', '=', keyHash)
      .where('window', '=', 'lifetime')
      .executeTakeFirst();
    return {
      ids: new Set(rows.map((r) => r.id)),
      cost: rows.reduce((sum, r) => sum + Number(r.cost_usd), 0),
      counter: Number(counter?.amount_usd ?? 0),
    };
  } finally {
    await db.destroy();
  }
}

interface RoundState {
  hash: string;
  apiKey: string;
  delivered: Map<string, number>;
}

/** Sends calls with a new key until `calls` are delivered, then SIGKILLs the server at once. */
async function loadAndKill(child: Child, token: string, options: CrashOptions): Promise<RoundState> {
  const key = await request<{ key: string; data: { hash: string } }>(child, 'POST', '/keys', token, { name: 'crash' });
  const apiKey = key.body.key;
  const delivered = new Map<string, number>();
  let started = 0;
  let done = false;
  const one = async (i: number): Promise<void> => {
    const stream = i % 2 === 1;
    const res = await fetch(`${child.api}/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        model: 'demo/echo',
        stream,
        ...(stream ? { stream_options: { include_usage: true } } : {}),
        messages: [{ role: 'user', content: `call ${i}: ${'lorem ipsum '.repeat(20)}` }],
      }),
    });
    const text = await res.text();
    if (res.status !== 200 || done) return;
    const parsed = stream ? lastUsageChunk(text) : (JSON.parse(text) as CallBody);
    if (parsed === null || (stream && !text.includes('[DONE]'))) return;
    delivered.set(parsed.id, parsed.usage?.cost ?? 0);
  };
  const worker = async (): Promise<void> => {
    while (!done && started < options.calls * 2) {
      const i = started++;
      await one(i).catch(() => undefined);
      if (delivered.size >= options.calls && !done) {
        done = true;
        child.process.kill('SIGKILL');
      }
    }
  };
  await Promise.all(Array.from({ length: options.concurrency }, () => worker()));
  await kill(child, 'SIGKILL');
  return { hash: key.body.data.hash, apiKey, delivered };
}

/**
 * Starts a server process; then, `rounds` times: a new key sends model calls (`concurrency` at a
 * time, JSON and streamed alternately) and the server is SIGKILLed the moment the last of `calls`
 * is delivered, with others in flight, and restarted on the same database and journal directory
 * (the restart of one round serves the next). Measures what was charged of what was delivered.
 */
export async function crashRounds(options: CrashOptions, rounds: number): Promise<CrashRound[]> {
  const journalBase = mkdtempSync(join(tmpdir(), 'sy-journal-'));
  const token = generateToken();
  const env = {
    SWITCHYARD_DATABASE_URL: options.databaseUrl,
    SWITCHYARD_MANAGEMENT_KEY: token,
    SWITCHYARD_LEDGER_JOURNAL_DIR: options.journal ? journalBase : 'off',
    SWITCHYARD_LEDGER_FLUSH_MS: String(options.flushMs ?? 250),
  };
  const t0 = performance.now();
  const trace = (what: string) => options.trace?.(`${what} at ${Math.round(performance.now() - t0)} ms`);
  let child = await startChild(env);
  trace('started');
  const results: { hash: string; delivered: Map<string, number>; chargedShare: number; replayed: number }[] = [];
  try {
    for (let round = 0; round < rounds; round++) {
      const state = await loadAndKill(child, token, options);
      trace(`round ${round + 1}: killed`);
      child = await startChild(env);
      trace(`round ${round + 1}: restarted`);
      const replayLine = child.logs.find((l) => l.includes('ledger journal:') && l.includes('replayed'));
      // The key's usage as the restarted server reports it (the spend counters, read through the meter).
      const me = await request<{ data: { usage: number } }>(child, 'GET', '/key', state.apiKey);
      const deliveredCostUsd = [...state.delivered.values()].reduce((a, b) => a + b, 0);
      results.push({
        hash: state.hash,
        delivered: state.delivered,
        chargedShare: deliveredCostUsd === 0 ? 1 : Math.min(me.body.data.usage, deliveredCostUsd) / deliveredCostUsd,
        replayed: Number(/(\d+) generation\(s\)/.exec(replayLine ?? '')?.[1] ?? 0),
      });
    }
    await kill(child, 'SIGTERM');
    // Each round's key is new, so its rows are what that round's restart found (plus nothing later).
    const out: CrashRound[] = [];
    for (const r of results) {
      const db = await stored(options.databaseUrl, r.hash);
      let recorded = 0;
      for (const id of r.delivered.keys()) if (db.ids.has(id)) recorded += 1;
      out.push({
        delivered: r.delivered.size,
        recorded,
        chargedShare: r.chargedShare,
        deliveredCostUsd: [...r.delivered.values()].reduce((a, b) => a + b, 0),
        replayed: r.replayed,
        storedRows: db.ids.size,
        storedCostUsd: db.cost,
        counterUsd: db.counter,
      });
    }
    return out;
  } finally {
    await kill(child, 'SIGKILL').catch(() => undefined);
    rmSync(journalBase, { recursive: true, force: true });
  }
}

interface CallBody {
  id: string;
  usage?: { cost?: number };
}

/** The id and usage of a streamed answer (its usage chunk), or null when it has none. */
function lastUsageChunk(text: string): CallBody | null {
  let found: CallBody | null = null;
  for (const line of text.split('\n')) {
    if (!line.startsWith('data: {')) continue;
    const chunk = JSON.parse(line.slice('data: '.length)) as CallBody;
    if (chunk.usage !== undefined) found = chunk;
  }
  return found;
}
