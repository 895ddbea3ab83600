import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Pool } from 'undici';
import { startFakeUpstream, type FakeUpstream } from '../fake-upstream/index.js';
import { startChildServer, type ChildServer } from '../support/child-server.js';
import { tempSqlitePath } from '../harness/env.js';

/** Small limits and timeouts, so every fault is met within two seconds (with room on a loaded machine). */
export const LIMITS = { maxBodyBytes: 64 * 1024, maxEventBytes: 16 * 1024 };
export const TIMEOUTS = { connect_ms: 1000, first_byte_ms: 1500, idle_ms: 800 };

/** The three ways a call reaches an upstream: OpenAI wire, Anthropic wire via chat, Anthropic native. */
export type Surface = 'openai' | 'anthropic-chat' | 'anthropic-messages';
export const SURFACES: readonly Surface[] = ['openai', 'anthropic-chat', 'anthropic-messages'];

function catalog(fakeUrl: string): Record<string, unknown> {
  const base = `${fakeUrl}/v1`;
  const provider = (id: string, kind: string) => ({
    id,
    kind,
    base_url: base,
    api_key: `sk-${id}-0001`,
    timeouts: TIMEOUTS,
  });
  const model = (slug: string, endpoints: [string, string][]) => ({
    slug,
    context_length: 100000,
    endpoints: endpoints.map(([p, m]) => ({
      provider: p,
      upstream_model: m,
      pricing: { prompt: 0.000001, completion: 0.000002 },
    })),
  });
  return {
    providers: [
      provider('fake-openai', 'openai'),
      provider('fake-anthropic', 'anthropic'),
      provider('fake-b', 'openai'),
    ],
    models: [
      model('openai/gpt-test', [['fake-openai', 'gpt-test']]),
      model('anthropic/claude-test', [['fake-anthropic', 'claude-test']]),
      model('openai/gpt-fallback', [
        ['fake-openai', 'gpt-test'],
        ['fake-b', 'gpt-test-b'],
      ]),
    ],
  };
}

/** The gateway in its own process (its memory and descriptors are its own) over the fake upstream. */
export interface FaultGateway {
  server: ChildServer;
  fake: FakeUpstream;
  pool: Pool;
  apiKey: string;
  /** A fresh connection pool to the gateway (the old one is closed, so its sockets go away). */
  renewPool(): Promise<void>;
  close(): Promise<void>;
}

/**
 * `defaultLimits`: keep the product's answer limits (benchmarks) instead of the small test ones.
 * `postgresUrl`: a PostgreSQL database instead of a fresh SQLite file.
 */
export async function startFaultGateway(
  env: Record<string, string> = {},
  options: { defaultLimits?: boolean; postgresUrl?: string } = {},
): Promise<FaultGateway> {
  const fake = await startFakeUpstream();
  const dir = mkdtempSync(join(tmpdir(), 'switchyard-faults-'));
  const configPath = join(dir, 'catalog.json');
  writeFileSync(configPath, JSON.stringify(catalog(fake.url)));
  const db = tempSqlitePath('faults.db');
  const server = await startChildServer({
    databaseUrl: options.postgresUrl ?? `sqlite:${db.path}`,
    env: {
      SWITCHYARD_CONFIG: configPath,
      SWITCHYARD_LEDGER_JOURNAL_DIR: dir,
      ...(options.defaultLimits === true
        ? {}
        : {
            SWITCHYARD_UPSTREAM_MAX_BODY_BYTES: String(LIMITS.maxBodyBytes),
            SWITCHYARD_UPSTREAM_MAX_EVENT_BYTES: String(LIMITS.maxEventBytes),
          }),
      ...env,
    },
  });
  const origin = server.api.replace(/\/api\/v1$/, '');
  const created = await fetch(`${server.api}/keys`, {
    method: 'POST',
    headers: { authorization: `Bearer ${server.managementToken}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'faults' }),
  });
  const { key } = (await created.json()) as { key: string };
  const gw: FaultGateway = {
    server,
    fake,
    pool: new Pool(origin, { connections: 64 }),
    apiKey: key,
    renewPool: async () => {
      await gw.pool.close();
      gw.pool = new Pool(origin, { connections: 64 });
    },
    close: async () => {
      await gw.pool.close();
      await server.stop();
      await fake.close();
      db.cleanup();
      rmSync(dir, { recursive: true, force: true });
    },
  };
  return gw;
}

export interface CallResult {
  status: number;
  /** The JSON body (non-stream), or the SSE data payloads (stream). */
  json: Record<string, unknown> | null;
  events: string[];
  /** Anthropic `event:` names of a Messages stream. */
  eventNames: string[];
}

/** One model call through a surface; `fault` is queued as the fake's next behaviour ('' for none). */
export async function modelCall(
  gw: FaultGateway,
  surface: Surface,
  options: { stream: boolean; fault: string; model?: string },
): Promise<CallResult> {
  const messages = [{ role: 'user', content: 'hi' }];
  const model = options.model ?? (surface === 'openai' ? 'openai/gpt-test' : 'anthropic/claude-test');
  const path = surface === 'anthropic-messages' ? '/api/v1/messages' : '/api/v1/chat/completions';
  const body =
    surface === 'anthropic-messages'
      ? { model, messages, max_tokens: 64, stream: options.stream }
      : { model, messages, stream: options.stream };
  gw.fake.queue(options.fault === '' ? {} : options.fault);
  const res = await gw.pool.request({
    path,
    method: 'POST',
    headers: {
      authorization: `Bearer ${gw.apiKey}`,
      'content-type': 'application/json',
    },
    body: JSON.stringify(body),
  });
  const text = await res.body.text();
  const out: CallResult = { status: res.statusCode, json: null, events: [], eventNames: [] };
  const type = String(res.headers['content-type'] ?? '');
  if (type.startsWith('text/event-stream')) {
    for (const block of text.split(/\r?\n\r?\n/)) {
      for (const line of block.split(/\r?\n/)) {
        if (line.startsWith('data: ')) out.events.push(line.slice(6));
        else if (line.startsWith('event: ')) out.eventNames.push(line.slice(7));
      }
    }
  } else if (text !== '') {
    out.json = JSON.parse(text) as Record<string, unknown>;
  }
  return out;
}

/** Polls `read` until it is at most `bound` (or the time is up); returns the last reading. */
export async function settlesTo(read: () => number, bound: number, withinMs = 5000): Promise<number> {
  const end = Date.now() + withinMs;
  let value = read();
  while (value > bound && Date.now() < end) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    value = read();
  }
  return value;
}
