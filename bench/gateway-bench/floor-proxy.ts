import { closeSync, openSync, writeSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Pool } from 'undici';
import type { CanonicalUsage } from '../../src/canonical/index.js';
import { admit, charge, floorPolicy, type Admitted, type FloorPolicy } from './floor-policy.js';
import { BENCH_PROVIDER_NAME } from './switchyard-target.js';
import { BENCH_MODEL } from './payloads.js';
import { proxyPool, proxyServer, type ProxyServer } from './bare-proxy.js';

/** The upstream key of the benchmark's catalog. */
const UPSTREAM_HEADERS = {
  authorization: 'Bearer sk-bench-upstream-key-0000000001',
  'content-type': 'application/json',
};

export interface Labelled {
  id?: unknown;
  model?: unknown;
  provider?: unknown;
  usage?: CanonicalUsage;
}

/** One upstream answer (or stream event) as the client sees it: our id, the catalog's slug, the provider's name. */
export function relabel(policy: FloorPolicy, call: Admitted, value: Labelled): Labelled {
  value.id = call.generationId;
  value.model = BENCH_MODEL;
  value.provider = BENCH_PROVIDER_NAME;
  if (value.usage !== undefined) value.usage = charge(policy, call.key, value.usage);
  return value;
}

interface Journal {
  /** One record per acknowledged call, written before the client has the answer's end. */
  record(call: Admitted, usage: CanonicalUsage | undefined): void;
  close(): void;
}

/** A call's journal record (~200 bytes): its id, key, model, provider, tokens, the key's spend, the time. */
export function journalLine(call: Admitted, usage: CanonicalUsage | undefined): string {
  return `${call.generationId}\t${call.key.digest}\t${BENCH_MODEL}\t${BENCH_PROVIDER_NAME}\t${usage?.prompt_tokens ?? 0}\t${usage?.completion_tokens ?? 0}\t${call.key.spentUsd}\t${Date.now()}\n`;
}

/** A file opened once; one `writeSync` of a ~200-byte line per call (the crash guarantee's write). */
function openJournal(path: string): Journal {
  const fd = openSync(path, 'a');
  return {
    record: (call, usage) => void writeSync(fd, journalLine(call, usage)),
    close: () => closeSync(fd),
  };
}

function refuse(res: ServerResponse, status: number, message: string): void {
  const body = JSON.stringify({ error: { code: status, message } });
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

/** The whole answer: parsed, relabelled, journalled, serialised, sent with its length. */
function answerJson(ctx: Context, call: Admitted, res: ServerResponse, status: number, raw: string): void {
  if (status !== 200) {
    refuse(res, status, 'upstream error');
    return;
  }
  const answer = relabel(ctx.policy, call, JSON.parse(raw) as Labelled);
  ctx.journal.record(call, answer.usage);
  const body = JSON.stringify(answer);
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

/**
 * The stream: each upstream read split into SSE events on blank lines (a partial event waits for
 * the next read), each data payload parsed, relabelled and serialised, the read's events written
 * together; `[DONE]` and the journal's write at the end.
 */
function answerStream(ctx: Context, call: Admitted, res: ServerResponse, body: NodeJS.ReadableStream): void {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  let carry = '';
  let usage: CanonicalUsage | undefined;
  body.setEncoding('utf8');
  body.on('data', (chunk: string) => {
    const events = (carry + chunk).split('\n\n');
    carry = events.pop() ?? '';
    let out = '';
    for (const event of events) {
      if (!event.startsWith('data: ')) continue;
      const data = event.slice(6);
      if (data === '[DONE]') continue;
      const value = relabel(ctx.policy, call, JSON.parse(data) as Labelled);
      if (value.usage !== undefined) usage = value.usage;
      out += `data: ${JSON.stringify(value)}\n\n`;
    }
    if (out !== '') res.write(out);
  });
  body.on('end', () => {
    ctx.journal.record(call, usage);
    res.end('data: [DONE]\n\n');
  });
  body.on('error', () => res.destroy());
}

interface Context {
  policy: FloorPolicy;
  pool: Pool;
  journal: Journal;
}

function readBody(req: IncomingMessage, done: (raw: string) => void): void {
  const length = Number(req.headers['content-length'] ?? -1);
  if (length >= 0) {
    // One buffer of the announced size, filled as the reads arrive.
    const buffer = Buffer.allocUnsafe(length);
    let at = 0;
    req.on('data', (c: Buffer) => {
      at += c.copy(buffer, at);
    });
    req.on('end', () => done(buffer.toString('utf8', 0, at)));
    return;
  }
  const parts: Buffer[] = [];
  req.on('data', (c: Buffer) => parts.push(c));
  req.on('end', () => done(Buffer.concat(parts).toString('utf8')));
}

function handle(ctx: Context, req: IncomingMessage, res: ServerResponse): void {
  readBody(req, (raw) => {
    const call = admit(ctx.policy, req.headers.authorization, raw);
    if ('status' in call) {
      refuse(res, call.status, call.message);
      return;
    }
    ctx.pool
      .request({ path: '/v1/chat/completions', method: 'POST', headers: UPSTREAM_HEADERS, body: call.upstreamBody })
      .then(async (up) => {
        if (call.stream && up.statusCode === 200) answerStream(ctx, call, res, up.body);
        else answerJson(ctx, call, res, up.statusCode, await up.body.text());
      })
      .catch(() => {
        if (!res.headersSent) refuse(res, 502, 'bad gateway');
        else res.destroy();
      });
  });
}

/**
 * The policy floor: the bare proxy (node:http in, one undici Pool out, the same options) plus
 * exactly the work the benchmark's full policy makes necessary for any design (floor-policy.ts),
 * the answer's relabelling and charge, and the journal's write per call. What a gateway costs
 * above it is its own overhead; what it costs above the bare proxy is the policy's work on Node.
 */
export function createFloorProxy(options: { origin: string; token: string; journalPath: string }): ProxyServer {
  const ctx: Context = {
    policy: floorPolicy(options.token),
    pool: proxyPool(options.origin),
    journal: openJournal(options.journalPath),
  };
  return proxyServer(
    (req, res) => {
      if (req.method !== 'POST') refuse(res, 404, 'not found');
      else handle(ctx, req, res);
    },
    async () => {
      await ctx.pool.close();
      ctx.journal.close();
    },
  );
}
