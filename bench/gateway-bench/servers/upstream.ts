/**
 * Fake OpenAI-compatible upstream (plain node:http, no artificial delay): POST
 * …/chat/completions answers the ~1.5 KB completion, or with `"stream": true` the 20-event SSE
 * stream, each event its own write. A body field `bench_chunk_interval_ms` paces the events
 * (used only by the 512-stream stall test). Prints nothing; reports its port over IPC.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { reportReady } from '../child.js';
import { completionJson, sseEvents } from '../payloads.js';

const JSON_BODY = Buffer.from(completionJson());
const EVENTS = sseEvents().map((e) => Buffer.from(e));

interface Wanted {
  stream: boolean;
  intervalMs: number;
}

function wanted(raw: string): Wanted {
  try {
    const body: unknown = JSON.parse(raw);
    if (typeof body !== 'object' || body === null) return { stream: false, intervalMs: 0 };
    const o = body as Record<string, unknown>;
    const interval = typeof o.bench_chunk_interval_ms === 'number' ? o.bench_chunk_interval_ms : 0;
    return { stream: o.stream === true, intervalMs: interval };
  } catch {
    return { stream: false, intervalMs: 0 };
  }
}

function paced(res: ServerResponse, intervalMs: number): void {
  let i = 0;
  const timer = setInterval(() => {
    const event = EVENTS[i++];
    if (event === undefined || res.destroyed) {
      clearInterval(timer);
      if (!res.writableEnded) res.end();
      return;
    }
    res.write(event);
  }, intervalMs);
  res.on('close', () => clearInterval(timer));
}

function answer(req: IncomingMessage, res: ServerResponse, raw: string): void {
  if (req.method !== 'POST' || !(req.url ?? '').endsWith('/chat/completions')) {
    res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":{"message":"not found"}}');
    return;
  }
  const w = wanted(raw);
  if (!w.stream) {
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': JSON_BODY.length });
    res.end(JSON_BODY);
    return;
  }
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  if (w.intervalMs > 0) {
    paced(res, w.intervalMs);
    return;
  }
  for (const event of EVENTS) res.write(event);
  res.end();
}

const server = createServer((req, res) => {
  const parts: Buffer[] = [];
  req.on('data', (c: Buffer) => parts.push(c));
  req.on('end', () => answer(req, res, Buffer.concat(parts).toString('utf8')));
});
server.keepAliveTimeout = 120_000;
server.headersTimeout = 130_000;
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  if (typeof address === 'object' && address !== null) reportReady(address.port);
});
process.on('SIGTERM', () => {
  server.closeAllConnections();
  server.close(() => process.exit(0));
});
